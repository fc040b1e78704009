import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { it } from 'vitest'
import { startFakeProvider } from '../test/support/fake-provider'

/**
 * 25 `modus run` processes started at once on one data dir and one workspace, each finishing its
 * task against the fake provider: wall time until the last exits, the peak of their summed RSS
 * (sampled from /proc every 50 ms), the largest single process, and whether every task is listed
 * as completed afterwards (processes sharing a data dir must not relabel each other's tasks).
 * Needs `npm run build` (out/main/cli.js) and Linux (/proc).
 */
const TASKS = 25
const SAMPLE_MS = 50
const root = resolve(__dirname, '..')
const cli = join(root, 'bin/modus.mjs')

const rssKb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  } catch {
    return 0
  }
}

it.skipIf(!existsSync(join(root, 'out/main/cli.js')) || process.platform !== 'linux')(
  `${TASKS} CLI tasks on one data dir`,
  async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'modus-concurrent-'))
    const workspace = join(scratch, 'ws')
    mkdirSync(workspace)
    const env = {
      ...process.env,
      MODUS_DATA_DIR: join(scratch, 'data'),
      ANTHROPIC_API_KEY: 'bench-key',
      NODE_OPTIONS: ''
    }
    const fake = await startFakeProvider({
      name: 'concurrent tasks',
      turns: Array.from({ length: TASKS }, () => ({
        toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }]
      }))
    })
    const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
    const loadBefore = loadavg()[0]
    const peakPerProcess = new Map<number, number>()
    let peakSum = 0
    try {
      const started = performance.now()
      const exits = Array.from({ length: TASKS }, (_, i) => {
        const child = spawn(process.execPath, [cli, 'run', '--workspace', workspace, ...provider, `Task ${i + 1}`], {
          cwd: root,
          env,
          stdio: 'ignore'
        })
        return { pid: child.pid!, exit: new Promise<number | null>((done) => child.once('exit', (code) => done(code))) }
      })
      let running = true
      const sampler = (async () => {
        while (running) {
          let sum = 0
          for (const { pid } of exits) {
            const kb = rssKb(pid)
            sum += kb
            peakPerProcess.set(pid, Math.max(peakPerProcess.get(pid) ?? 0, kb))
          }
          peakSum = Math.max(peakSum, sum)
          await new Promise((done) => setTimeout(done, SAMPLE_MS))
        }
      })()
      const codes = await Promise.all(exits.map((e) => e.exit))
      const wallMs = performance.now() - started
      running = false
      await sampler
      const listed = spawnSync(process.execPath, [cli, 'tasks', '--json', '--workspace', workspace], {
        cwd: root,
        env,
        encoding: 'utf8'
      })
      const statuses = listed.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { status: string }).status)
      const counts = statuses.reduce<Record<string, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {})
      const mb = (kb: number) => (kb / 1024).toFixed(0)
      console.log(
        [
          '',
          `${TASKS} \`modus run\` processes at once on one data dir (built CLI, fake provider), load ${loadBefore.toFixed(1)} before / ${loadavg()[0].toFixed(1)} after`,
          '| figure | value |',
          '|---|---|',
          `| wall time, first spawn to last exit | ${(wallMs / 1000).toFixed(1)} s |`,
          `| peak RSS, all ${TASKS} processes summed | ${mb(peakSum)} MB |`,
          `| peak RSS, largest single process | ${mb(Math.max(...peakPerProcess.values()))} MB |`,
          `| exit codes | ${[...new Set(codes)].join(', ')} |`,
          `| \`modus tasks\` afterwards (of ${TASKS}; the list shows the latest 20) | ${Object.entries(counts)
            .map(([s, n]) => `${n} ${s}`)
            .join(', ')} |`
        ].join('\n')
      )
    } finally {
      await fake.close()
      rmSync(scratch, { recursive: true, force: true })
    }
  }
)
