import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
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
import type { CodeIndexStatus } from '../src/shared/contract/code-index'
import { openCodeIndex } from '../src/main/core/code-index/code-index'
import { createEmbedder } from '../src/main/core/code-index/embedder'
import { PARSE_WORKER_IDLE_STOP_MS } from '../src/main/core/code-index/parse-worker'
import { createParserPool } from '../src/main/core/code-index/parser-pool'
import { ANN_INDEX_MIN_FLOATS } from '../src/main/core/code-index/vector-store'
import { startEmbeddingsProcess } from './support/embeddings-process'

// The project's own node_modules JavaScript, copied into a temp workspace. 3,000 files by default, so
// that the whole bench ends within its time limit on a shared 2-core machine;
// CODE_INDEX_BENCH_FILES=all takes every file (about 12.7k files, 95k chunks: issue #29's size).
const SIZE = process.env.CODE_INDEX_BENCH_FILES ?? '3000'
const LIMIT = SIZE === 'all' ? Infinity : Number(SIZE)
/** The whole size takes far longer to build at load 20+ than the default's 600 s allow. */
const TIME_LIMIT_MS = SIZE === 'all' ? 3_600_000 : 600_000
/** Query rounds stop here, or after 100 rounds, whichever comes first (each round runs rg over the workspace). */
const QUERY_BUDGET_MS = SIZE === 'all' ? 300_000 : 120_000
/** Issue #29's figures for the full build before this work: the goal is 3× these. */
const BUILD_BEFORE = { filesPerSecond: 186, chunksPerSecond: 1379 }

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

interface Reopened {
  rssMb: number
  heapMb: number
  /** The first and second update of the edited file, ms. */
  updates: number[]
}

/**
 * bench/support/reopen-rss.ts in a new Node process, on a copy of the kept index (its updates leave
 * this process's index as it was): its memory after opening the index, one query and a sync, then
 * its first and second update of one edited file, each after the watcher's debounce. `warm`: the
 * parser readied after the sync and at the edit, as the app's service and watcher do; `cold`: not
 * (as before #29's one-file work).
 */
function reopenInFreshProcess(
  root: string,
  dir: string,
  baseUrl: string,
  edited: string,
  mode: 'warm' | 'cold'
): Reopened {
  const copy = `${dir}-${mode}`
  cpSync(dir, copy, { recursive: true })
  try {
    const jiti = join('node_modules', 'jiti', 'lib', 'jiti-cli.mjs')
    const script = join(__dirname, 'support', 'reopen-rss.ts')
    const args = ['--expose-gc', jiti, script, root, copy, baseUrl, edited, mode]
    const out = execFileSync(process.execPath, args, { encoding: 'utf8' })
    return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Reopened
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]

it(
  `code index over node_modules JavaScript (${SIZE} files), beside LanceDB alone and rg`,
  async () => {
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
    // The embeddings endpoint runs in its own process: its work is not the index's, as a real endpoint's is not.
    const endpoint = await startEmbeddingsProcess()
    const parser = createParserPool()
    const embedder = createEmbedder({ baseUrl: endpoint.baseUrl, model: 'fake' })
    // When the lexical index was whole (the status says the vectors are being made from then; they began beside it).
    let embeddingFrom = 0
    const options = {
      root: ws,
      dir: join(root, 'idx'),
      parser,
      embedder: async () => ({ embedder, baseUrl: endpoint.baseUrl }),
      onStatus: (status: CodeIndexStatus) => {
        if (!embeddingFrom && status.semantic.state === 'embedding') embeddingFrom = performance.now()
      }
    }
    const rssMb = () => (process.memoryUsage().rss / 1e6).toFixed(0)
    const rssBefore = rssMb()
    let index = await openCodeIndex(options)
    let t = performance.now()
    await index.sync()
    const buildMs = performance.now() - t
    const lexicalMs = embeddingFrom ? embeddingFrom - t : buildMs
    const status = index.status()
    // The ANN vector index (past its size) is made after the sync, in the background.
    t = performance.now()
    await index.whenIdle()
    const annIndexMs = performance.now() - t
    const annIndexed = status.semantic.chunksEmbedded * (status.semantic.dimension ?? 0) >= ANN_INDEX_MIN_FLOATS
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

    // Memory with the index open, as this process holds it after the build, the reopen and a sync (the
    // anchor below reads every row into this process, so it is left out of this figure).
    ;(globalThis as { gc?: () => void }).gc?.()
    const rssRightAfter = rssMb()
    // A parse worker that a big file grew is replaced by a fresh one once idle (it keeps the largest file's wasm heap until then).
    await new Promise((resolve) => setTimeout(resolve, PARSE_WORKER_IDLE_STOP_MS + 1000))
    ;(globalThis as { gc?: () => void }).gc?.()
    const rssIndexOpen = rssMb()
    const heapIndexOpen = (process.memoryUsage().heapUsed / 1e6).toFixed(0)
    // The same index opened by a new process, as after a restart (this process keeps what the build
    // allocated), and its first update of an edited file: what a user meets. Cold and warm alternate.
    const reopenEdited = relative(ws, join(ws, flat(source, files[1])))
    const fresh: Record<'warm' | 'cold', Reopened[]> = { warm: [], cold: [] }
    for (const mode of ['cold', 'warm', 'cold', 'warm'] as const)
      fresh[mode].push(reopenInFreshProcess(ws, options.dir, endpoint.baseUrl, reopenEdited, mode))
    const reopened = fresh.warm[fresh.warm.length - 1]

    const one = join(ws, flat(source, files[0]))
    appendFileSync(one, '\nfunction benchChangedFunction() { return 1 }\n')
    // As the watcher does: the edit seen (the parser readied, the file parsed ahead), its debounce, the update.
    void index.warmParser([relative(ws, one)])
    await new Promise((resolve) => setTimeout(resolve, 300))
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
      // The part of a hybrid query spent on its embedding: the round trip to the endpoint (another process).
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
    const roundsFrom = performance.now()
    let rounds = 0
    for (; rounds < 100 && performance.now() - roundsFrom < QUERY_BUDGET_MS; rounds++) {
      const i = rounds
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
    for (let i = 0; i < rounds; i++) {
      t = performance.now()
      await lexicalIndex.search(queries[i % queries.length], { limit: 10 })
      lexicalOnly.push(performance.now() - t)
    }
    await lexicalIndex.close()
    const ms = (values: number[]) =>
      `p50 ${percentile(values, 0.5).toFixed(1)} / p95 ${percentile(values, 0.95).toFixed(1)} ms`
    const perSecond = (count: number, millis: number) => Math.round((count / millis) * 1000).toLocaleString('en')
    const chunksPerSecond = (status.chunks / buildMs) * 1000
    const filesPerSecond = (status.filesTotal / buildMs) * 1000
    const anchorPerSecond = (rows.length / anchorBuildMs) * 1000
    const row = (...cells: string[]) => `| ${cells.join(' | ')} |`
    console.log(
      [
        `code index bench: ${SIZE} files asked, ${status.filesTotal} files, ${status.chunks} chunks, ${status.semantic.chunksEmbedded} vectors (${status.semantic.state}); load ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at the end; ${rounds} query rounds`,
        '',
        row('measure', 'Modus', 'anchor, same run', 'goal'),
        row('---', '---', '---', '---'),
        row(
          'query p50 / p95 (hybrid)',
          ms(ours),
          `LanceDB FTS alone ${ms(fts)}`,
          `<= 2x the anchor (${(percentile(ours, 0.5) / percentile(fts, 0.5)).toFixed(1)}x at p50)`
        ),
        row('- lexical only (FTS + fetch by id)', ms(lexicalOnly), `fetch 10 by id (BTree) ${ms(byId)}`, '-'),
        row(
          '- the query embedding (endpoint in another process)',
          ms(embedOnly),
          `LanceDB vector search direct (${annIndexed ? 'IVF-Flat' : 'flat'}) ${ms(annDirect)}`,
          `vectors scanned in memory below ${ANN_INDEX_MIN_FLOATS / 1024 / 1024}M floats, ANN index from there`
        ),
        row(
          'memory with the index open',
          `a new process that reopened it: RSS ${reopened.rssMb} MB (JS heap ${reopened.heapMb} MB; parser warmed; ${fresh.cold.map((r) => r.rssMb).join(', ')} MB without); the building process: RSS ${rssIndexOpen} MB once the parse worker was idle, ${rssRightAfter} MB before (JS heap ${heapIndexOpen} MB; ${rssBefore} MB before the build)`,
          '-',
          '<= 400 MB at 100k chunks'
        ),
        row(
          'reopen a kept index, nothing changed',
          `open ${openMs.toFixed(0)} ms, first answer ${firstAnswerMs.toFixed(0)} ms after opening; first sync ${unchangedSyncMs.toFixed(0)} ms, again ${unchangedAgainMs.toFixed(0)} ms`,
          `full build ${(buildMs / 1000).toFixed(1)} s`,
          'ready <= 1 s after opening; unchanged sync <= 3 s'
        ),
        row(
          'full build',
          `${perSecond(status.filesTotal, buildMs)} files/s, ${perSecond(status.chunks, buildMs)} chunks/s (${(buildMs / 1000).toFixed(1)} s: lexical ${(lexicalMs / 1000).toFixed(1)} s with vectors made alongside, then vectors ${((buildMs - lexicalMs) / 1000).toFixed(1)} s; then in the background ${annIndexed ? `the ANN index ${(annIndexMs / 1000).toFixed(1)} s` : 'no ANN index'})`,
          `LanceDB add + FTS index: ${perSecond(rows.length, anchorBuildMs)} chunks/s (Modus at ${((chunksPerSecond / anchorPerSecond) * 100).toFixed(0)}%)`,
          `>= 3x ${BUILD_BEFORE.filesPerSecond} files/s, ${BUILD_BEFORE.chunksPerSecond} chunks/s (now ${(filesPerSecond / BUILD_BEFORE.filesPerSecond).toFixed(1)}x, ${(chunksPerSecond / BUILD_BEFORE.chunksPerSecond).toFixed(1)}x, at this load)`
        ),
        row(
          're-index after one file changed',
          `watcher path ${updateMs.toFixed(0)} ms; full sync ${reindexMs.toFixed(0)} ms`,
          '-',
          '<= 200 ms'
        ),
        row(
          '- the first update after a reopen (a new process; then the second)',
          fresh.warm.map((r) => r.updates.map((u) => u.toFixed(0)).join(' then ')).join('; ') + ' ms',
          `the parser not readied (as before): ${fresh.cold.map((r) => r.updates.map((u) => u.toFixed(0)).join(' then ')).join('; ')} ms`,
          '<= 200 ms'
        ),
        row('literal search', '-', `rg -F -l ${ms(rg)}`, '-'),
        '',
        `RSS at the end: ${rssMb()} MB (the anchor read every row into this process).`
      ].join('\n')
    )
    vectorTable.close()
    table.close()
    db.close()
    await index.close()
    parser.dispose()
    await endpoint.close()
    rmSync(root, { recursive: true, force: true })
  },
  TIME_LIMIT_MS
)
