import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { it } from 'vitest'
import { createSandboxService } from '../src/main/core/sandbox/sandbox-service'
import { createTerminalService } from '../src/main/core/terminal'
import type { CommandRunRequest } from '../src/main/core/terminal/types'

/**
 * A command's overhead in the OS sandbox (issues 18, 26): the same command through execute_command's
 * path (the task's persistent shell in node-pty, markers, capture) unsandboxed and sandboxed with
 * network none (since issue 26 Modus's own bubblewrap line, kept between commands), rounds
 * interleaved in one run. Commands: `true`, and `npm test` of a small fixture (node's test runner,
 * one test). The wrap alone (building the line) is timed too, and, interleaved with the `true`
 * rounds: a mode with network (`ask`: the runtime's wrap, its proxy bridges), the wrapped `true`
 * run outside the pty, and, spawned bare from Node, `/bin/true` and bubblewrap with the same
 * namespaces (without, then with a network namespace): bare bwrap minus bare `true` is what one
 * bubblewrap start costs here, the floor of any sandbox that starts one per command.
 */
const ROUNDS = { true: 20, 'npm test': 6 }

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const spawnTime = (file: string, args: string[]): Promise<number> =>
  new Promise((done, fail) => {
    const started = performance.now()
    execFile(file, args, { timeout: 60_000 }, (error) =>
      error ? fail(Object.assign(new Error(error.message), { cause: error })) : done(performance.now() - started)
    )
  })
const BARE_BWRAP = [
  '--new-session',
  '--die-with-parent',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--unshare-pid',
  '--unshare-user',
  '--proc',
  '/proc'
]

const span = (values: number[]): string =>
  `${median(values).toFixed(0)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}, n=${values.length})`

it('sandboxed vs unsandboxed command overhead', async () => {
  const loadAtStart = loadavg()
  const base = await realpath(await mkdtemp(join(tmpdir(), 'modus-sandbox-bench-')))
  const root = join(base, 'fixture')
  await mkdir(join(root, 'test'), { recursive: true })
  await writeFile(
    join(root, 'package.json'),
    JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts: { test: 'node --test test/' } })
  )
  await writeFile(
    join(root, 'test', 'sum.test.js'),
    "const test = require('node:test'); const assert = require('node:assert'); test('sum', () => assert.equal(1 + 1, 2))\n"
  )
  const terminal = createTerminalService({
    dataDir: join(base, 'data'),
    shell: '/bin/bash',
    loadUserRc: false,
    resolveEnv: async () => ({ ...(process.env as Record<string, string>), SHELL: '/bin/bash' }),
    emit: () => undefined
  })
  const sandbox = createSandboxService({ askNetwork: async () => ({ allow: false }) })
  const status = await sandbox.status()
  if (!status.available) {
    console.log(`[sandbox] not available here: ${status.reason}`)
    return
  }
  const task = terminal.forTask('bench', root)
  const wrapTimes: number[] = []
  const inSandbox =
    (network: 'none' | 'ask', times?: number[], warm = false): CommandRunRequest['sandbox'] =>
    async (command, shell, tty) => {
      const started = performance.now()
      const wrapped = await sandbox.prepare({
        taskId: 'bench',
        // One warm sandbox per mode: a mode has one network setting (two modes here, so neither is rebuilt).
        modeSlug: warm ? `code-${network}` : 'code',
        modeName: 'Code',
        command,
        workspaceRoot: root,
        sandbox: { network, allowedDomains: [] },
        shell,
        // With the terminal, the command runs in the task's warm sandbox; without, one started for it.
        ...(warm ? { tty } : {})
      })
      times?.push(performance.now() - started)
      return wrapped
    }
  type How = 'plain' | 'none' | 'ask' | 'warm none' | 'warm ask'
  const timed = async (command: string, how: How): Promise<number> => {
    const started = performance.now()
    const network = how === 'plain' ? null : how.endsWith('none') ? 'none' : 'ask'
    const result = await task.execute({
      command,
      timeoutMs: 120_000,
      ...(network
        ? { sandbox: inSandbox(network, how === 'none' ? wrapTimes : undefined, how.startsWith('warm')) }
        : {})
    })
    if (result.exitCode !== 0) throw new Error(`${command} (${how}) exited ${result.exitCode}: ${result.output.text}`)
    return performance.now() - started
  }
  const lines: string[] = []
  try {
    await timed('true', 'plain')
    await timed('true', 'none')
    await timed('true', 'ask')
    await timed('true', 'warm none')
    await timed('true', 'warm ask')
    for (const [command, rounds] of Object.entries(ROUNDS)) {
      const plain: number[] = []
      const boxed: number[] = []
      wrapTimes.length = 0
      const parts = {
        warmNone: [] as number[],
        warmAsk: [] as number[],
        ask: [] as number[],
        direct: [] as number[],
        bareTrue: [] as number[],
        bwrap: [] as number[],
        bwrapNet: [] as number[]
      }
      for (let round = 0; round < rounds; round++) {
        plain.push(await timed(command, 'plain'))
        boxed.push(await timed(command, 'none'))
        parts.warmNone.push(await timed(command, 'warm none'))
        if (command !== 'true') continue
        parts.warmAsk.push(await timed(command, 'warm ask'))
        parts.ask.push(await timed(command, 'ask'))
        const wrapped = await sandbox.prepare({
          taskId: 'bench',
          modeSlug: 'code',
          modeName: 'Code',
          command: 'true',
          workspaceRoot: root,
          sandbox: { network: 'none', allowedDomains: [] },
          shell: '/bin/bash'
        })
        parts.direct.push(await spawnTime('/bin/bash', ['-c', wrapped.text]))
        wrapped.finish('')
        parts.bareTrue.push(await spawnTime('/bin/true', []))
        parts.bwrap.push(await spawnTime('bwrap', [...BARE_BWRAP, '--', '/bin/true']))
        parts.bwrapNet.push(await spawnTime('bwrap', [...BARE_BWRAP, '--unshare-net', '--', '/bin/true']))
      }
      lines.push(
        `${command.padEnd(9)} unsandboxed ${span(plain)} | sandboxed (network none) ${span(boxed)} | overhead ${(median(boxed) - median(plain)).toFixed(0)} ms (median), of which the wrap ${span(wrapTimes)}`
      )
      lines.push(
        `  warm sandbox (one kept per task, mode and terminal), network none ${span(parts.warmNone)}, overhead ${(median(parts.warmNone) - median(plain)).toFixed(0)} ms`
      )
      if (parts.direct.length > 0)
        lines.push(
          `  warm sandbox, network ask (its proxy bridges started once) ${span(parts.warmAsk)}, overhead ${(median(parts.warmAsk) - median(plain)).toFixed(0)} ms`,
          `  sandboxed with network (ask: the runtime's wrap and proxy bridges) ${span(parts.ask)}, overhead ${(median(parts.ask) - median(plain)).toFixed(0)} ms`,
          `  spawned bare from Node: /bin/true ${span(parts.bareTrue)}; bwrap ${span(parts.bwrap)} (one bwrap start: ${(median(parts.bwrap) - median(parts.bareTrue)).toFixed(0)} ms); bwrap + network namespace ${span(parts.bwrapNet)} (${(median(parts.bwrapNet) - median(parts.bareTrue)).toFixed(0)} ms); the wrapped \`true\` outside the pty ${span(parts.direct)}`
        )
    }
  } finally {
    await sandbox.dispose()
    await terminal.dispose()
    await rm(base, { recursive: true, force: true })
  }
  console.log(
    [
      `[sandbox] execute_command through the task shell, unsandboxed vs sandboxed (network none), rounds interleaved; load average ${loadAtStart.map((n) => n.toFixed(1)).join(' / ')} at the start`,
      ...lines,
      `Machine: ${cpus().length} cores, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' / ')} at the end.`
    ].join('\n')
  )
})
