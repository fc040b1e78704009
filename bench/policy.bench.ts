import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { performance } from 'node:perf_hooks'
import { rolldown } from 'rolldown'
import { it } from 'vitest'
import { decideCommand, type RuleSet } from '../src/shared/policy/commands'
import { decide } from '../src/shared/policy/decide'
import { parseShell } from '../src/shared/policy/shell/parser'
import type { ResolvedMode } from '../src/shared/modes/schema'
import { CODE_COMMAND_RULES } from '../src/shared/modes/builtin'

/**
 * Command parse + decision over workload 3 (10,000 commands, perf-anchors §3: Roo's parseCommand
 * 101k/s, getCommandDecision 88k/s with allow 31 / deny 8). Modus runs a real shell grammar, so
 * beside it, in the same process, a naive baseline (regex split on operators + word-prefix
 * match) shows what the grammar costs. Figures are printed, never asserted.
 *
 * POLICY_BENCH_BASELINE=<git ref> also runs that commit's policy (its src/shared, checked out into a
 * temp dir) over the same commands in the same process, so a change's cost is printed beside the
 * figures before it (issue 25: 23052c6, the policy before the hardening).
 */
const WARM_PASSES = 10
const workloads = resolve(__dirname, '../../shared/workloads/generate.mjs')
const root = resolve(__dirname, '..')

type DecideCommand = typeof decideCommand
type Decide = typeof decide

/** Another commit's decideCommand and decide(), loaded from its src/shared in a temp dir. */
async function baselinePolicy(ref: string): Promise<{ decideCommand: DecideCommand; decide: Decide; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'modus-policy-baseline-'))
  const archive = execFileSync('git', ['archive', ref, 'src/shared'], { cwd: root })
  execFileSync('tar', ['-x', '-C', dir], { input: archive })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  const commands = (await import(join(dir, 'src/shared/policy/commands.ts'))) as { decideCommand: DecideCommand }
  const decideModule = (await import(join(dir, 'src/shared/policy/decide.ts'))) as { decide: Decide }
  return { decideCommand: commands.decideCommand, decide: decideModule.decide, dir }
}

/**
 * The policy of a source tree as the app runs it: bundled into one module, as electron-vite builds
 * the main process. Loaded through vitest, every call into another module goes through the module
 * runner's import object, which costs a share of the figures that the shipped code does not pay.
 */
async function bundledPolicy(dir: string): Promise<{ decideCommand: DecideCommand; decide: Decide }> {
  const out = mkdtempSync(join(tmpdir(), 'modus-policy-bundle-'))
  const entry = join(out, 'entry.ts')
  const from = (file: string) => JSON.stringify(join(dir, 'src/shared/policy', file))
  writeFileSync(
    entry,
    `export { decideCommand } from ${from('commands.ts')}\nexport { decide } from ${from('decide.ts')}\n`
  )
  const bundle = await rolldown({ input: entry, platform: 'node', cwd: dir, logLevel: 'silent' })
  await bundle.write({ file: join(out, 'policy.mjs'), format: 'esm' })
  await bundle.close()
  return (await import(pathToFileURL(join(out, 'policy.mjs')).href)) as { decideCommand: DecideCommand; decide: Decide }
}

interface Lists {
  allowed: string[]
  denied: string[]
  rooDefaultAllowed: string[]
}

function timed<T>(
  commands: readonly string[],
  run: (command: string) => T,
  perCommand?: number[],
  onResult?: (result: T) => void
) {
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  for (let i = 0; i < commands.length; i++) {
    const t0 = performance.now()
    const result = run(commands[i])
    const took = performance.now() - t0
    if (perCommand) perCommand[i] = Math.min(perCommand[i] ?? Infinity, took)
    onResult?.(result)
  }
  const cpu = process.cpuUsage(cpuStart)
  lastCpuSeconds = (cpu.user + cpu.system) / 1e6
  return (performance.now() - start) / 1000
}

/** The process's CPU time over the last timed pass: on a busy machine it moves far less than the wall clock. */
let lastCpuSeconds = 0

/**
 * Slowest single command: each command's best time over the warm passes (so a GC pause or a busy
 * machine does not stand in for the command's own cost), then the worst of those; the worst raw
 * observation is printed beside it.
 *
 * Several policies given together (the baseline commit's and today's) are measured the same way with
 * their passes interleaved (cold passes first, then warm pass 1 of each, pass 2 of each, …), so a
 * change in the machine's load during the run weighs on both alike instead of on whichever runs last.
 */
function measure<T>(
  label: string,
  commands: readonly string[],
  run: (command: string) => T,
  count?: (result: T) => string
) {
  measureTogether(commands, [[label, run]], count)
}

function measureTogether<T>(
  commands: readonly string[],
  runs: ReadonlyArray<[string, (command: string) => T]>,
  count?: (result: T) => string
) {
  const stats = runs.map(([label, run]) => ({
    label,
    run,
    cold: timed(commands, run),
    warm: [] as number[],
    warmCpu: [] as number[],
    best: [] as number[],
    worstRaw: [] as number[]
  }))
  for (let pass = 0; pass < WARM_PASSES; pass++)
    for (const stat of stats) {
      const raw: number[] = []
      stat.warm.push(commands.length / timed(commands, stat.run, raw))
      stat.warmCpu.push(commands.length / lastCpuSeconds)
      raw.forEach((took, i) => {
        stat.best[i] = Math.min(stat.best[i] ?? Infinity, took)
        stat.worstRaw[i] = Math.max(stat.worstRaw[i] ?? 0, took)
      })
    }
  for (const { label, run, cold, warm, warmCpu, best, worstRaw } of stats) {
    const slowestIndex = best.reduce((worst, took, i) => (took > best[worst] ? i : worst), 0)
    const counts = new Map<string, number>()
    if (count)
      timed(commands, run, undefined, (result) => counts.set(count(result), (counts.get(count(result)) ?? 0) + 1))
    warm.sort((a, b) => a - b)
    warmCpu.sort((a, b) => a - b)
    const median = warm[Math.floor(warm.length / 2)]
    const fmt = (n: number) => Math.round(n).toLocaleString('en')
    console.log(
      `[policy bench] ${label}: ${fmt(median)} commands/s warm median (${fmt(warm[0])}–${fmt(warm[warm.length - 1])}), ` +
        `${(1e6 / median).toFixed(1)} µs/command, per CPU second ${fmt(warmCpu[Math.floor(warmCpu.length / 2)])}/s, ` +
        `cold ${fmt(commands.length / cold)}/s, ` +
        `slowest single ${best[slowestIndex].toFixed(3)} ms best-of-${WARM_PASSES} (${JSON.stringify(commands[slowestIndex].slice(0, 60))}), ` +
        `worst raw ${Math.max(...worstRaw).toFixed(1)} ms` +
        (counts.size ? `; ${[...counts].map(([k, v]) => `${v} ${k}`).join(', ')}` : '')
    )
  }
}

/** What a prefix-matching agent without a shell grammar does: the baseline, not a policy. */
function naiveDecision(command: string, allowed: readonly string[], denied: readonly string[]): string {
  const parts = command
    .split(/&&|\|\||[;|&\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
  let verdict = 'allow'
  for (const part of parts) {
    const matches = (rule: string) => part === rule || part.startsWith(`${rule} `)
    if (denied.some(matches)) return 'deny'
    if (!allowed.some(matches)) verdict = 'ask'
  }
  return verdict
}

it.skipIf(!existsSync(workloads))(
  existsSync(workloads) ? 'policy: parse + decide over workload 3' : 'policy bench (../shared not present, skipped)',
  async () => {
    const { generate } = (await import(pathToFileURL(workloads).href)) as {
      generate: () => { files: Record<string, string> }
    }
    const { files } = generate()
    const commands = JSON.parse(files['commands.json']) as string[]
    const lists = JSON.parse(files['command-lists.json']) as Lists
    console.log(
      `[policy bench] ${commands.length} commands; allow ${lists.allowed.length} / deny ${lists.denied.length}`
    )
    const parsed = commands.map(parseShell)
    console.log(
      `[policy bench] parse: ${parsed.filter((p) => p.ok).length} parsed, ${parsed.filter((p) => !p.ok).length} unparsable (ask), ` +
        `${parsed.reduce((n, p) => n + p.commands.length, 0)} simple commands, ${parsed.filter((p) => p.commands.length > 1).length} compound`
    )

    const sets = (allow: string[], deny: string[]): RuleSet[] => [
      { origin: 'bench', rules: { allow, deny }, allowApplies: true }
    ]
    measure(
      'baseline naive split + prefix (no grammar)',
      commands,
      (c) => naiveDecision(c, lists.allowed, lists.denied),
      (r) => r
    )
    measure('parseShell', commands, parseShell)
    const baselineRef = process.env.POLICY_BENCH_BASELINE
    const baseline = baselineRef ? await baselinePolicy(baselineRef) : undefined
    const policies: Array<[string, DecideCommand, Decide]> = [['', decideCommand, decide]]
    if (baseline && baselineRef) policies.unshift([` [${baselineRef}]`, baseline.decideCommand, baseline.decide])
    const codeAllow = [...CODE_COMMAND_RULES.allow]
    const variants: Array<[string, string[], string[]]> = [
      ['allow 31 / deny 8', lists.allowed, lists.denied],
      ['Roo default allow (3), no deny', lists.rooDefaultAllowed, []],
      ['* + deny 8', ['*'], lists.denied],
      ["Code mode's allow list + deny 8", codeAllow, lists.denied]
    ]
    for (const [name, allow, deny] of variants) {
      // Built once per variant, as a mode holds its rules.
      const ruleSets = sets(allow, deny)
      measureTogether(
        commands,
        policies.map(([tag, decideLine]) => [
          `decideCommand, ${name}${tag}`,
          (c: string) => decideLine(c, ruleSets, true)
        ]),
        (r) => r.decision
      )
    }

    const mode: ResolvedMode = {
      slug: 'bench',
      name: 'Bench',
      roleDefinition: 'r',
      groups: ['read', 'edit', 'command'],
      commandRules: { allow: lists.allowed, deny: lists.denied },
      autoApprove: { read: true, command: true },
      origin: 'global',
      overridesBuiltIn: false
    }
    const ctx = { mode, trusted: true, workspaceRoot: '/work/project', isIgnored: (p: string) => p.startsWith('.env') }
    measureTogether(
      commands,
      policies.map(([tag, , decideCall]) => [
        `decide(execute_command) full policy (rules + redirect writes + ignore)${tag}`,
        (command: string) => decideCall({ name: 'execute_command', params: { command } }, ctx)
      ]),
      (r) => `${r.decision}`
    )

    // The same, bundled as the app ships it (see bundledPolicy).
    const shipped: Array<[string, Decide]> = [['', (await bundledPolicy(root)).decide]]
    if (baseline && baselineRef) shipped.unshift([` [${baselineRef}]`, (await bundledPolicy(baseline.dir)).decide])
    const shippedDecideCommand = (await bundledPolicy(root)).decideCommand
    const codeRules = sets(codeAllow, lists.denied)
    measureTogether(commands, [
      ...shipped.map(([tag, decideCall]): [string, (command: string) => unknown] => [
        `bundled: decide(execute_command) full policy${tag}`,
        (command: string) => decideCall({ name: 'execute_command', params: { command } }, ctx)
      ]),
      [
        "bundled: decideCommand, Code mode's allow list + deny 8",
        (command: string) => shippedDecideCommand(command, codeRules, true)
      ]
    ])
  },
  // On a loaded machine the passes take minutes: the bench waits rather than fail.
  1_800_000
)
