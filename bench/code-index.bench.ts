import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, appendFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { it } from 'vitest'
import { openCodeIndex } from '../src/main/core/code-index/code-index'
import { createEmbedder } from '../src/main/core/code-index/embedder'
import { createCodeParser } from '../src/main/core/code-index/parser'
import { startFakeProvider } from '../test/support/fake-provider'

// The project's own node_modules JavaScript, copied into a temp workspace (CODE_INDEX_BENCH_FILES caps the count).
const LIMIT = Number(process.env.CODE_INDEX_BENCH_FILES ?? 100_000)

function jsFiles(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (out.length >= LIMIT) return
    const abs = join(dir, entry.name)
    if (entry.isDirectory()) jsFiles(abs, out)
    else if (/\.(c|m)?js$/.test(entry.name) && statSync(abs).size < 1024 * 1024) out.push(abs)
  }
}

/** Flat names under src/: package folders such as dist/ or build/ would be excluded like a build output. */
const flat = (source: string, file: string) => join('src', relative(source, file).replace(/[\\/]/g, '__'))

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]

it('code index over node_modules JavaScript, beside rg', async () => {
  const source = realpathSync('node_modules')
  const files: string[] = []
  jsFiles(source, files)
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'modus-bench-idx-')))
  const ws = join(root, 'ws')
  for (const file of files) {
    const target = join(ws, flat(source, file))
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(file, target)
  }
  const fake = await startFakeProvider({ name: 'bench' })
  const parser = createCodeParser()
  const embedder = createEmbedder({ baseUrl: fake.openaiBaseUrl, model: 'fake' })
  const index = await openCodeIndex({ root: ws, dir: join(root, 'idx'), parser, embedder: async () => ({ embedder, baseUrl: fake.openaiBaseUrl }) })
  let t = performance.now()
  await index.sync()
  const buildMs = performance.now() - t
  const status = index.status()
  const one = join(ws, flat(source, files[0]))
  appendFileSync(one, '\nfunction benchChangedFunction() { return 1 }\n')
  t = performance.now()
  await index.sync()
  const reindexMs = performance.now() - t
  const queries = ['createElement', 'readFileSync', 'addEventListener', 'JSON.parse', 'prototype', 'Buffer.from', 'setTimeout', 'hasOwnProperty', 'Promise.resolve', 'module.exports']
  const ours: number[] = []
  const rg: number[] = []
  for (let i = 0; i < 100; i++) {
    const q = queries[i % queries.length]
    t = performance.now()
    await index.search(q, { limit: 10 })
    ours.push(performance.now() - t)
    t = performance.now()
    try {
      execFileSync('rg', ['-F', '-l', '--', q, ws], { stdio: ['ignore', 'ignore', 'ignore'] })
    } catch {
      // rg exits 1 when nothing matches
    }
    rg.push(performance.now() - t)
  }
  console.log(
    [
      `files ${status.filesTotal}, chunks ${status.chunks}, vectors ${status.semantic.chunksEmbedded} (${status.semantic.state})`,
      `full index: ${(buildMs / 1000).toFixed(1)} s = ${((status.filesTotal / buildMs) * 1000).toFixed(0)} files/s, ${((status.chunks / buildMs) * 1000).toFixed(0)} chunks/s (fake embedder included)`,
      `re-index after one file changed: ${reindexMs.toFixed(0)} ms`,
      `codebase search (hybrid) p50 ${percentile(ours, 0.5).toFixed(1)} ms, p95 ${percentile(ours, 0.95).toFixed(1)} ms`,
      `rg -F -l same literal queries p50 ${percentile(rg, 0.5).toFixed(1)} ms, p95 ${percentile(rg, 0.95).toFixed(1)} ms`
    ].join('\n')
  )
  await index.close()
  parser.dispose()
  await fake.close()
  rmSync(root, { recursive: true, force: true })
})
