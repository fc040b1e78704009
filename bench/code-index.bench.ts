import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  appendFileSync
} from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { it } from 'vitest'
import { openCodeIndex } from '../src/main/core/code-index/code-index'
import { createEmbedder } from '../src/main/core/code-index/embedder'
import { createCodeParser } from '../src/main/core/code-index/parser'
import { ANN_INDEX_MIN_VECTORS, MEMORY_SCAN_MAX_FLOATS } from '../src/main/core/code-index/vector-store'
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

/** Flat names under src/ (one folder, whatever the packages' layout). */
const flat = (source: string, file: string) => join('src', relative(source, file).replace(/[\\/]/g, '__'))

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]

it('code index over node_modules JavaScript, beside rg', async () => {
  const loadAtStart = loadavg()[0]
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
  const options = {
    root: ws,
    dir: join(root, 'idx'),
    parser,
    embedder: async () => ({ embedder, baseUrl: fake.openaiBaseUrl })
  }
  const rssMb = () => (process.memoryUsage().rss / 1e6).toFixed(0)
  const rssBefore = rssMb()
  let index = await openCodeIndex(options)
  let t = performance.now()
  await index.sync()
  const buildMs = performance.now() - t
  const status = index.status()
  await index.close()

  // Reopen the kept index as a new process would: time to open, to the first answer, to a sync of the unchanged tree.
  t = performance.now()
  index = await openCodeIndex(options)
  const openMs = performance.now() - t
  await index.search('createElement', { limit: 10 })
  const firstAnswerMs = performance.now() - t
  t = performance.now()
  await index.sync()
  const unchangedSyncMs = performance.now() - t
  t = performance.now()
  await index.sync()
  const unchangedAgainMs = performance.now() - t

  // Memory with the index open, as this process holds it after the build, the reopen and a sync: the
  // fake endpoint's log of every request (each chunk's text) is the harness's, not the index's, and
  // the anchor below reads every row into this process, so both are left out of this figure.
  fake.requests.length = 0
  ;(globalThis as { gc?: () => void }).gc?.()
  const rssIndexOpen = rssMb()
  const heapIndexOpen = (process.memoryUsage().heapUsed / 1e6).toFixed(0)

  const one = join(ws, flat(source, files[0]))
  appendFileSync(one, '\nfunction benchChangedFunction() { return 1 }\n')
  t = performance.now()
  await index.update([relative(ws, one)])
  const updateMs = performance.now() - t
  appendFileSync(one, '\nfunction benchChangedAgain() { return 2 }\n')
  t = performance.now()
  await index.sync()
  const reindexMs = performance.now() - t

  const queries = [
    'createElement',
    'readFileSync',
    'addEventListener',
    'JSON.parse',
    'prototype',
    'Buffer.from',
    'setTimeout',
    'hasOwnProperty',
    'Promise.resolve',
    'module.exports'
  ]
  // The anchor: LanceDB used directly on the same table (its FTS index, limit 10, text returned), and a BTree fetch by id.
  const lancedb = await import('@lancedb/lancedb')
  const db = await lancedb.connect(join(root, 'idx', 'lance'))
  const table = await db.openTable('chunks')
  const ids = (await table.query().select(['id']).limit(10).toArray()).map((r) => String(r.id))
  const ours: number[] = []
  const fts: number[] = []
  const byId: number[] = []
  const rg: number[] = []
  const vectorTable = await db.openTable('vectors')
  const probeVector = (await vectorTable.query().select(['vector']).limit(1).toArray())[0]?.vector
  const annDirect: number[] = []
  const embedOnly: number[] = []
  const measures: Array<[number[], (q: string) => Promise<unknown>]> = [
    [ours, (q) => index.search(q, { limit: 10 })],
    // The part of a hybrid query spent on its embedding: the round trip to the fake endpoint in this process.
    [embedOnly, (q) => embedder.embed([q])],
    [
      fts,
      (q) =>
        table
          .query()
          .fullTextSearch(q.toLowerCase().replace(/[^a-z0-9_$]+/g, ' '), { columns: 'terms' })
          .select(['id', 'text', '_score'])
          .limit(10)
          .toArray()
    ],
    [
      byId,
      () =>
        table
          .query()
          .where(`id IN (${ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(', ')})`)
          .toArray()
    ],
    [
      annDirect,
      () =>
        vectorTable
          .vectorSearch(Array.from(probeVector as Iterable<number>))
          .distanceType('cosine')
          .select(['id', '_distance'])
          .limit(50)
          .toArray()
    ],
    [
      rg,
      async (q) => {
        try {
          execFileSync('rg', ['-F', '-l', '--', q, ws], { stdio: ['ignore', 'ignore', 'ignore'] })
        } catch {
          // rg exits 1 when nothing matches
        }
      }
    ]
  ]
  // Each round runs the measures in another order: whatever follows rg (a process that takes both
  // cores, after which this process's threads wait to be scheduled again under load) is not always ours.
  for (let i = 0; i < 100; i++) {
    const q = queries[i % queries.length]
    for (let k = 0; k < measures.length; k++) {
      const [samples, run] = measures[(i + k) % measures.length]
      t = performance.now()
      await run(q)
      samples.push(performance.now() - t)
    }
  }
  // The build's anchor: the same rows (terms included) added to a fresh LanceDB table directly, then its FTS index made.
  const rows = await table.query().select(['id', 'path', 'start_line', 'end_line', 'text', 'terms']).toArray()
  const anchorDb = await lancedb.connect(join(root, 'anchor'))
  t = performance.now()
  const anchorTable = await anchorDb.createTable(
    'chunks',
    rows.map((r) => ({ ...r }))
  )
  await anchorTable.createIndex('terms', {
    config: lancedb.Index.fts({
      baseTokenizer: 'whitespace',
      lowercase: false,
      stem: false,
      removeStopWords: false,
      withPosition: false
    })
  })
  const anchorBuildMs = performance.now() - t
  anchorTable.close()
  anchorDb.close()
  // The same queries with no embeddings configured: the lexical half alone (FTS + fetch by id).
  const lexicalIndex = await openCodeIndex({ ...options, embedder: async () => null })
  const lexicalOnly: number[] = []
  for (let i = 0; i < 100; i++) {
    t = performance.now()
    await lexicalIndex.search(queries[i % queries.length], { limit: 10 })
    lexicalOnly.push(performance.now() - t)
  }
  await lexicalIndex.close()
  const ms = (values: number[]) =>
    `p50 ${percentile(values, 0.5).toFixed(1)} ms, p95 ${percentile(values, 0.95).toFixed(1)} ms`
  console.log(
    [
      `files ${status.filesTotal}, chunks ${status.chunks}, vectors ${status.semantic.chunksEmbedded} (${status.semantic.state}); load ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at the end`,
      `full build: ${(buildMs / 1000).toFixed(1)} s = ${((status.filesTotal / buildMs) * 1000).toFixed(0)} files/s, ${((status.chunks / buildMs) * 1000).toFixed(0)} chunks/s (read, parse, chunk, fake embedder, store, indexes)`,
      `anchor: LanceDB add of the same ${rows.length} rows + FTS index ${(anchorBuildMs / 1000).toFixed(1)} s = ${((rows.length / anchorBuildMs) * 1000).toFixed(0)} chunks/s`,
      `reopen kept index: open ${openMs.toFixed(0)} ms, first answer ${firstAnswerMs.toFixed(0)} ms after opening, sync of the unchanged tree ${unchangedSyncMs.toFixed(0)} ms (goal <= 3 s), again ${unchangedAgainMs.toFixed(0)} ms`,
      `re-index after one file changed: watcher path (update) ${updateMs.toFixed(0)} ms (goal <= 200 ms), full sync ${reindexMs.toFixed(0)} ms`,
      `codebase search (hybrid: query embedded on the fake endpoint, vectors, FTS, fetch) ${ms(ours)}`,
      `  of which the query's embedding (fake endpoint, same process) ${ms(embedOnly)}; vectors scanned in memory up to ${MEMORY_SCAN_MAX_FLOATS / 1024 / 1024}M floats while no ANN index exists (${ANN_INDEX_MIN_VECTORS} vectors)`,
      `codebase search (lexical only: FTS + fetch by id) ${ms(lexicalOnly)}`,
      `anchor: LanceDB FTS alone (limit 10, text) ${ms(fts)}`,
      `anchor: LanceDB fetch 10 chunks by id (BTree) ${ms(byId)}`,
      `anchor: LanceDB vector search direct (50 nearest, ${status.semantic.chunksEmbedded >= 20_000 ? 'IVF-PQ' : 'flat'}) ${ms(annDirect)}`,
      `rg -F -l same literal queries ${ms(rg)}`,
      `RSS: ${rssBefore} MB before, ${rssIndexOpen} MB with the index open after build, reopen and unchanged sync (JS heap ${heapIndexOpen} MB; goal <= 400 MB at 100k chunks), ${rssMb()} MB at the end (the anchor read every row here)`
    ].join('\n')
  )
  vectorTable.close()
  table.close()
  db.close()
  await index.close()
  parser.dispose()
  await fake.close()
  rmSync(root, { recursive: true, force: true })
})
