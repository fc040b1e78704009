import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, it } from 'vitest'
import { createListFilesExecutor } from '../src/main/core/tools/list-files'
import { createSearchFilesExecutor } from '../src/main/core/tools/search-files'
import { createWorkspace, findRipgrep, type Workspace } from '../src/main/core/workspace'

// list_files / search_files over the project's own node_modules (tens of thousands of files),
// interleaved with rg, git ls-files and a raw Node walk in the same process. Figures only.

const ROOT = resolve(__dirname, '..')
const TREE = 'node_modules'
/** Timed rounds per table: listings take a fraction of a second, so more of them steady the median. */
const LIST_ROUNDS = 15
const SEARCH_ROUNDS = 5
const PATTERN = 'createElement'
const rg = findRipgrep()

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (xs: number[]): string =>
  `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`

/** Runs a command as an agent would: spawn, count stdout lines, time until close. */
function runCommand(cmd: string, args: string[]): Promise<{ ms: number; lines: number; bytes: number }> {
  return new Promise((done, fail) => {
    const t = performance.now()
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
    let lines = 0
    let bytes = 0
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
    })
    child.on('error', fail)
    child.on('close', () => done({ ms: performance.now() - t, lines, bytes }))
  })
}

interface Variant {
  name: string
  run: () => Promise<string>
}

async function interleave(variants: Variant[], rounds: number): Promise<string[]> {
  const times = new Map<string, number[]>()
  const results = new Map<string, string>()
  for (const v of variants) results.set(v.name, await v.run()) // untimed warm-up
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const t = performance.now()
      results.set(v.name, await v.run())
      times.set(v.name, [...(times.get(v.name) ?? []), performance.now() - t])
    }
  }
  return variants.map((v) => `| ${v.name} | ${fmt(times.get(v.name)!)} | ${results.get(v.name)} |`)
}

const ctxFor = (workspace: Workspace) => ({
  taskId: 'bench',
  signal: new AbortController().signal,
  modelSupportsImages: false,
  workspace
})

describe.skipIf(!existsSync(join(ROOT, TREE)))('file tools over node_modules', () => {
  it('list and search', async () => {
    const workspace = await createWorkspace({ root: ROOT })
    const rows: string[] = []

    const listVariants: Variant[] = [
      {
        name: 'Modus workspace.list(node_modules, recursive, no limit)',
        run: async () => {
          const { entries } = await workspace.list(TREE, { recursive: true, limit: Number.MAX_SAFE_INTEGER })
          return `${entries.filter((e) => !e.isDirectory).length} files, ${entries.filter((e) => e.isDirectory).length} dirs`
        }
      },
      {
        name: 'Modus list_files tool (recursive, limit 200)',
        run: async () => {
          const out = await createListFilesExecutor().execute({ path: TREE, recursive: true }, ctxFor(workspace))
          return `${(out.content[0] as { text: string }).text.split('\n').length - 1} lines out`
        }
      },
      {
        name: 'Node readdirSync(recursive) floor',
        run: async () =>
          `${readdirSync(join(ROOT, TREE), { recursive: true, withFileTypes: true }).filter((d) => !d.isDirectory()).length} files+links`
      },
      {
        name: 'git ls-files --others node_modules',
        run: async () => `${(await runCommand('git', ['ls-files', '--others', '--', TREE])).lines} files`
      }
    ]
    if (rg) {
      listVariants.push({
        name: 'rg --files --no-ignore --hidden node_modules',
        run: async () => `${(await runCommand(rg, ['--files', '--no-ignore', '--hidden', TREE])).lines} files`
      })
    }
    rows.push(
      '',
      '| listing | ms median (min–max) | result |',
      '|---|---|---|',
      ...(await interleave(listVariants, LIST_ROUNDS))
    )

    const search = (engine: 'ripgrep' | 'builtin', maxResults: number) => async () => {
      const r = await workspace.search(TREE, { regex: PATTERN, contextLines: 1, maxResults, engine })
      return `${r.matches}${r.truncated ? '+' : ''} matching lines in ${r.files.length} files`
    }
    const searchVariants: Variant[] = [
      {
        name: `Modus search_files tool (rg, cap 300)`,
        run: async () => {
          const out = await createSearchFilesExecutor({ engine: rg ? 'ripgrep' : 'builtin' }).execute(
            { path: TREE, regex: PATTERN },
            ctxFor(workspace)
          )
          const text = (out.content[0] as { text: string }).text
          return `${text.split('\n')[0].slice(0, 60)} (${text.length} chars)`
        }
      },
      { name: 'Modus built-in engine (cap 300)', run: search('builtin', 300) },
      { name: 'Modus built-in engine, uncapped (no rg on PATH)', run: search('builtin', Number.MAX_SAFE_INTEGER) }
    ]
    if (rg) {
      searchVariants.push(
        { name: 'Modus rg engine, uncapped', run: search('ripgrep', Number.MAX_SAFE_INTEGER) },
        {
          name: `rg --json -e ${PATTERN} --context 1 (Roo's arguments, raw)`,
          run: async () => {
            const r = await runCommand(rg, [
              '--json',
              '-e',
              PATTERN,
              '--context',
              '1',
              '--no-messages',
              '--no-ignore',
              TREE
            ])
            return `${r.lines} JSON lines, ${(r.bytes / 1e6).toFixed(1)} MB`
          }
        },
        {
          name: `rg -n --no-ignore ${PATTERN}`,
          run: async () => `${(await runCommand(rg, ['-n', '--no-ignore', PATTERN, TREE])).lines} lines`
        }
      )
    }
    rows.push(
      '',
      `| search /${PATTERN}/ in ${TREE} | ms median (min–max) | result |`,
      '|---|---|---|',
      ...(await interleave(searchVariants, SEARCH_ROUNDS))
    )

    // Parity over the whole tree: both engines, uncapped, one run each.
    let t = performance.now()
    const builtinAll = await workspace.search(TREE, {
      regex: PATTERN,
      contextLines: 1,
      maxResults: Number.MAX_SAFE_INTEGER,
      engine: 'builtin'
    })
    const builtinMs = performance.now() - t
    rows.push(
      '',
      `Built-in engine uncapped: ${builtinAll.matches} matching lines in ${builtinAll.files.length} files, ${builtinMs.toFixed(0)} ms (one run).`
    )
    if (rg) {
      t = performance.now()
      const rgAll = await workspace.search(TREE, {
        regex: PATTERN,
        contextLines: 1,
        maxResults: Number.MAX_SAFE_INTEGER,
        engine: 'ripgrep'
      })
      const same = JSON.stringify(rgAll.files) === JSON.stringify(builtinAll.files)
      rows.push(
        `rg engine uncapped: ${rgAll.matches} matching lines in ${rgAll.files.length} files, ${(performance.now() - t).toFixed(0)} ms; identical results to the built-in engine: ${same}.`
      )
    }
    console.log(rows.join('\n'))
  })
})
