import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { it } from 'vitest'

/**
 * How long the built CLI takes to start, beside bare Node in the same run (rounds interleaved):
 * `modus --help` and `modus tasks` in an empty workspace. Each run also reports which of the heavy
 * packages its start loaded; Playwright and LanceDB are loaded only when a browser or an index is
 * first used. Needs `npm run build` (out/main/cli.js).
 */
const ROUNDS = 9
const root = resolve(__dirname, '..')
const cli = join(root, 'bin/modus.mjs')
const HEAVY = [
  'playwright-core',
  '@lancedb/lancedb',
  'apache-arrow',
  '@modelcontextprotocol/sdk',
  '@anthropic-ai/sdk',
  'openai',
  'node-pty'
]

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

it.skipIf(!existsSync(join(root, 'out/main/cli.js')))('CLI start beside bare Node', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'modus-cli-start-'))
  // Preloaded into each run: on exit it prints the heavy packages the process had loaded.
  const probe = join(scratch, 'loaded.cjs')
  writeFileSync(
    probe,
    `process.on('exit', () => { const seen = new Set(); for (const k of Object.keys(require.cache)) { const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(k); if (m && ${JSON.stringify(HEAVY)}.includes(m[1])) seen.add(m[1]) } process.stderr.write('LOADED ' + [...seen].sort().join(',') + '\\n') })`
  )
  const workspace = join(scratch, 'ws')
  const dataDir = join(scratch, 'data')
  const env = { ...process.env, MODUS_DATA_DIR: dataDir, NODE_OPTIONS: '' }
  const runs: Record<string, string[]> = {
    'bare node (`node -e 0`)': ['-e', '0'],
    '`modus --help`': ['--require', probe, cli, '--help'],
    '`modus tasks` (empty workspace)': ['--require', probe, cli, 'tasks', '--workspace', workspace]
  }
  spawnSync('mkdir', ['-p', workspace])
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]))
  const loaded: Record<string, string> = {}
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of Object.entries(runs)) {
        const t = performance.now()
        const child = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8' })
        times[name].push(performance.now() - t)
        if (child.status !== 0) throw new Error(`${name} exited ${child.status}: ${child.stderr}`)
        loaded[name] = /LOADED (.*)/.exec(child.stderr)?.[1] || '–'
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  const base = median(times['bare node (`node -e 0`)'])
  console.log(
    [
      '',
      `CLI start, ${ROUNDS} rounds interleaved, load ${loadavg()[0].toFixed(1)}`,
      '| run | median ms | × bare node | heavy packages loaded |',
      '|---|---|---|---|',
      ...Object.keys(runs).map(
        (k) =>
          `| ${k} | ${median(times[k]).toFixed(0)} | ${(median(times[k]) / base).toFixed(1)} | ${loaded[k] ?? '–'} |`
      )
    ].join('\n')
  )
})
