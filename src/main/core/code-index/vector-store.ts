import { mkdir } from 'node:fs/promises'
import type * as LanceDb from '@lancedb/lancedb'
import type * as Arrow from 'apache-arrow'
import type { Chunk } from './chunker'
import { tokenize } from './tokenize'

export interface StoredChunk extends Chunk {
  id: string
}

export interface VectorHit {
  id: string
  /** Cosine similarity, 1 = same direction. */
  similarity: number
}

export interface LexicalHit {
  id: string
  /** BM25 score (higher is better; comparable within one query only). */
  score: number
}

/**
 * Where a workspace's chunks and vectors live. Everything the index needs from storage goes through
 * this interface: a shared LanceDB on object storage or a Qdrant collection would be another
 * implementation of it (see the README, "An index for a team").
 */
export interface ChunkStore {
  addChunks(rows: readonly StoredChunk[]): Promise<void>
  /** Drops the chunks and vectors of these files. */
  removePaths(paths: readonly string[]): Promise<void>
  chunkCount(): Promise<number>
  /** Whether every stored chunk can be read (a damaged data file behind a readable manifest: no). */
  readable(): Promise<boolean>
  chunksById(ids: readonly string[]): Promise<Map<string, StoredChunk>>
  chunksOf(paths: readonly string[]): Promise<StoredChunk[]>
  /** BM25 over the chunks' terms (the store's own full-text index). */
  searchText(query: string, limit: number, pathPrefix?: string): Promise<LexicalHit[]>
  addVectors(rows: ReadonlyArray<{ id: string; path: string; vector: number[] }>, dimension: number): Promise<void>
  dropVectors(): Promise<void>
  /** Drops the vectors of these files (their chunks stay). */
  removeVectorsOf(paths: readonly string[]): Promise<void>
  vectorCount(): Promise<number>
  searchVectors(vector: number[], limit: number, pathPrefix?: string): Promise<VectorHit[]>
  /** Folds new rows into the indexes and merges small fragments (after a run). */
  compact(tolerated: number): Promise<void>
  clear(): Promise<void>
  close(): void
}

const CHUNKS = 'chunks'
const VECTORS = 'vectors'
/**
 * Vectors past which an ANN index (IVF-PQ) replaces the flat scan: a flat cosine scan of 94.6k
 * vectors took 26–29 ms here, of 20k about 6 ms, which is about what an IVF probe plus refine costs.
 */
export const ANN_INDEX_MIN_VECTORS = 20_000
/**
 * Vectors whose floats (count × dimension) fit under this are scanned in this process's memory, not
 * by a LanceDB query: at 2,000 files (9.9k vectors of 64) LanceDB's flat search took 20–30 ms of a
 * 36–58 ms hybrid query at load 23 (3 ms in an idle process), the scan in memory under 1 ms. 16M
 * floats = 64 MB: 100k vectors of 64, 10k of 1536; past it LanceDB (flat, then IVF-PQ) answers.
 */
export const MEMORY_SCAN_MAX_FLOATS = 16 * 1024 * 1024
/** New rows left outside the full-text index before it is brought up to date (they are searched flat until then). */
const UNINDEXED_ROWS_TOLERATED = 2_000
const MAX_TERM = 48

const chunkSchema = ({ Schema, Field, Utf8, Int32 }: typeof Arrow) =>
  new Schema([
    new Field('id', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('start_line', new Int32(), false),
    new Field('end_line', new Int32(), false),
    new Field('text', new Utf8(), false),
    // The chunk's identifiers and their camelCase / snake_case parts, space separated: what the
    // full-text index tokenises (LanceDB's tokenizers do not split identifiers).
    new Field('terms', new Utf8(), false)
  ])

const vectorSchema = ({ Schema, Field, Utf8, FixedSizeList, Float32 }: typeof Arrow, dimension: number) =>
  new Schema([
    new Field('id', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false)
  ])

/** SQL string literal for LanceDB filters. */
const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`
const inList = (values: readonly string[]): string => values.map(literal).join(', ')
const underPrefix = (prefix: string): string =>
  `(path = ${literal(prefix)} OR starts_with(path, ${literal(`${prefix}/`)}))`

/** The store on disk cannot be used as it is (damaged, or laid out by another version). */
export class StoreLayoutError extends Error {
  override name = 'StoreLayoutError'
}

const columnsOf = (schema: Arrow.Schema): string => schema.fields.map((f) => f.name).join(',')

/** Opens a table and checks it has this version's columns. */
async function openChecked(db: LanceDb.Connection, name: string, columns: string): Promise<LanceDb.Table> {
  const table = await db.openTable(name)
  const found = columnsOf(await table.schema())
  if (found !== columns) {
    table.close()
    throw new StoreLayoutError(`table ${name} has columns ${found}, expected ${columns}`)
  }
  return table
}

const rowToChunk = (r: Record<string, unknown>): StoredChunk => ({
  id: String(r.id),
  path: String(r.path),
  startLine: Number(r.start_line),
  endLine: Number(r.end_line),
  text: String(r.text)
})

/** The indexes the chunks table needs: full text on the terms, BTree on id (fetch by id) and path (deletes). */
async function ensureChunkIndexes(lancedb: typeof LanceDb, table: LanceDb.Table): Promise<void> {
  const have = new Set((await table.listIndices()).map((i) => i.columns.join(',')))
  if (!have.has('terms')) {
    const fts = lancedb.Index.fts({
      baseTokenizer: 'whitespace',
      lowercase: false,
      stem: false,
      removeStopWords: false,
      asciiFolding: false,
      withPosition: false,
      maxTokenLength: MAX_TERM
    })
    await table.createIndex('terms', { config: fts })
  }
  if (!have.has('id')) await table.createIndex('id', { config: lancedb.Index.btree() })
  if (!have.has('path')) await table.createIndex('path', { config: lancedb.Index.btree() })
}

export interface LanceChunkStore extends ChunkStore {
  /** Reads the vectors into memory if they fit (once); whether the vector search now scans memory. */
  holdVectorsInMemory(): Promise<boolean>
}

/** Every stored vector, normalised, in one array: an exact cosine scan without a LanceDB query. */
interface VectorsInMemory {
  ids: string[]
  paths: string[]
  dimension: number
  /** ids.length × dimension floats, each vector of length 1 (or 0 if it was all zeros). */
  unit: Float32Array
}

function normaliseInto(target: Float32Array, offset: number, source: ArrayLike<number>): void {
  let norm = 0
  for (let i = 0; i < source.length; i++) norm += source[i] * source[i]
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let i = 0; i < source.length; i++) target[offset + i] = source[i] * scale
}

/** Reads the table column by column (row objects would cost seconds at 10k rows under load). */
async function loadVectors(table: LanceDb.Table, count: number, dimension: number): Promise<VectorsInMemory> {
  const memory: VectorsInMemory = { ids: [], paths: [], dimension, unit: new Float32Array(count * dimension) }
  let row = 0
  // One answer for the whole table: each streamed batch would wait for LanceDB's threads again.
  const all = await table.query().select(['id', 'path', 'vector']).toArrow()
  for (const batch of all.batches) {
    const ids = batch.getChild('id')!
    const paths = batch.getChild('path')!
    const vectors = batch.getChild('vector')!
    const first = row
    for (let i = 0; i < batch.numRows && row < count; i++, row++) {
      memory.ids.push(String(ids.get(i)))
      memory.paths.push(String(paths.get(i)))
    }
    // The floats straight from the list column's child data (one view per data chunk, no per-row objects).
    let at = first
    for (const data of vectors.data) {
      const floats = data.children[0]
      const values = floats.values as Float32Array
      for (let i = 0; i < data.length && at < row; i++, at++) {
        const start = floats.offset + (data.offset + i) * dimension
        normaliseInto(memory.unit, at * dimension, values.subarray(start, start + dimension))
      }
    }
  }
  if (row < count) memory.unit = memory.unit.subarray(0, row * dimension)
  return memory
}

/** The `limit` nearest by cosine similarity (ties: stored order), as LanceDB's flat search ranks them. */
function scanVectors(memory: VectorsInMemory, vector: number[], limit: number, pathPrefix?: string): VectorHit[] {
  const { dimension, unit } = memory
  if (vector.length !== dimension || limit <= 0) return []
  const query = new Float32Array(dimension)
  normaliseInto(query, 0, vector)
  const inPrefix = (path: string) => !pathPrefix || path === pathPrefix || path.startsWith(`${pathPrefix}/`)
  const best: VectorHit[] = []
  for (let row = 0; row < memory.ids.length; row++) {
    if (!inPrefix(memory.paths[row])) continue
    let dot = 0
    for (let i = 0, at = row * dimension; i < dimension; i++, at++) dot += unit[at] * query[i]
    if (best.length === limit && dot <= best[limit - 1].similarity) continue
    let at = best.length
    while (at > 0 && best[at - 1].similarity < dot) at--
    best.splice(at, 0, { id: memory.ids[row], similarity: dot })
    if (best.length > limit) best.pop()
  }
  return best
}

function withRows(
  memory: VectorsInMemory,
  rows: ReadonlyArray<{ id: string; path: string; vector: number[] }>
): VectorsInMemory | null {
  if (memory.ids.length > 0 && rows.some((r) => r.vector.length !== memory.dimension)) return null
  const dimension = memory.ids.length > 0 ? memory.dimension : rows[0].vector.length
  const unit = new Float32Array(memory.unit.length + rows.length * dimension)
  unit.set(memory.unit)
  rows.forEach((r, i) => normaliseInto(unit, memory.unit.length + i * dimension, r.vector))
  return {
    ids: [...memory.ids, ...rows.map((r) => r.id)],
    paths: [...memory.paths, ...rows.map((r) => r.path)],
    dimension,
    unit
  }
}

const withoutPaths =
  (paths: readonly string[]) =>
  (memory: VectorsInMemory): VectorsInMemory => {
    const gone = new Set(paths)
    const keep = memory.paths.flatMap((path, row) => (gone.has(path) ? [] : [row]))
    const { dimension } = memory
    const unit = new Float32Array(keep.length * dimension)
    keep.forEach((row, i) => unit.set(memory.unit.subarray(row * dimension, (row + 1) * dimension), i * dimension))
    return { ids: keep.map((row) => memory.ids[row]), paths: keep.map((row) => memory.paths[row]), dimension, unit }
  }

/** A workspace's chunks and vectors on disk (LanceDB, embedded). Chunks and vectors are separate tables, so lexical search works without vectors. */
export async function openVectorStore(
  dir: string,
  { memoryScanMaxFloats = MEMORY_SCAN_MAX_FLOATS }: { memoryScanMaxFloats?: number } = {}
): Promise<LanceChunkStore> {
  await mkdir(dir, { recursive: true })
  // Loaded when a workspace is first indexed: both weigh on the start of every process otherwise.
  const [lancedb, arrow] = await Promise.all([import('@lancedb/lancedb'), import('apache-arrow')])
  const db = await lancedb.connect(dir)
  let chunks: LanceDb.Table
  let vectors: LanceDb.Table | null
  try {
    const names = new Set(await db.tableNames())
    chunks = names.has(CHUNKS)
      ? await openChecked(db, CHUNKS, columnsOf(chunkSchema(arrow)))
      : await db.createEmptyTable(CHUNKS, chunkSchema(arrow))
    vectors = names.has(VECTORS) ? await openChecked(db, VECTORS, columnsOf(vectorSchema(arrow, 1))) : null
    await ensureChunkIndexes(lancedb, chunks)
  } catch (err) {
    db.close()
    throw err instanceof StoreLayoutError ? err : new StoreLayoutError((err as Error).message)
  }

  // The vectors read into memory for the scan (small tables only): read once, then kept up to date
  // by the writes below, so an edit does not cost the next query a read of the whole table.
  let inMemory: Promise<VectorsInMemory | null> | null = null
  let loaded: VectorsInMemory | null = null
  let writes = 0
  const vectorsInMemory = (table: LanceDb.Table): Promise<VectorsInMemory | null> => {
    if (inMemory) return inMemory
    inMemory = (async () => {
      try {
        return await readVectors(table)
      } catch {
        return null // LanceDB keeps answering; the next write allows another read
      }
    })()
    return inMemory
  }
  const readVectors = async (table: LanceDb.Table): Promise<VectorsInMemory | null> => {
    const seen = writes
    const count = await table.countRows()
    const probe = (count > 0 ? await table.query().select(['vector']).limit(1).toArray() : []) as Array<{
      vector: { length: number }
    }>
    const dimension = probe.length > 0 ? probe[0].vector.length : 0
    const memory = count * dimension <= memoryScanMaxFloats ? await loadVectors(table, count, dimension) : null
    // A write that began meanwhile may be missing from what was read: the next search reads again.
    if (seen === writes) loaded = memory
    return memory
  }
  /** A write to the vectors; `apply` brings the vectors in memory up to date (null: read them again). */
  const changingVectors = async (
    write: () => Promise<void>,
    apply: (memory: VectorsInMemory) => VectorsInMemory | null
  ): Promise<void> => {
    const kept = loaded
    const mine = ++writes
    inMemory = null
    loaded = null
    await write()
    if (!kept || mine !== writes) return
    loaded = apply(kept)
    if (loaded && loaded.unit.length > memoryScanMaxFloats) loaded = null
    inMemory = loaded ? Promise.resolve(loaded) : null
  }

  const deleteIn = async (table: LanceDb.Table, column: string, values: readonly string[]) => {
    for (let i = 0; i < values.length; i += 500)
      await table.delete(`${column} IN (${inList(values.slice(i, i + 500))})`)
  }

  /** An ANN index once the vectors pass the size where the flat scan costs more. */
  const ensureVectorIndex = async (): Promise<void> => {
    if (!vectors || (await vectors.countRows()) < ANN_INDEX_MIN_VECTORS) return
    if ((await vectors.listIndices()).some((i) => i.columns.includes('vector'))) return
    await vectors.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine' }) })
  }

  const unindexedRows = async (table: LanceDb.Table): Promise<number> => {
    let most = 0
    for (const index of await table.listIndices())
      most = Math.max(most, (await table.indexStats(index.name))?.numUnindexedRows ?? 0)
    return most
  }

  return {
    async addChunks(rows) {
      if (rows.length === 0) return
      await chunks.add(
        rows.map((r) => ({
          id: r.id,
          path: r.path,
          start_line: r.startLine,
          end_line: r.endLine,
          text: r.text,
          terms: tokenize(r.text).join(' ')
        }))
      )
    },
    async removePaths(paths) {
      if (paths.length === 0) return
      await deleteIn(chunks, 'path', paths)
      if (vectors) await changingVectors(() => deleteIn(vectors!, 'path', paths), withoutPaths(paths))
    },
    chunkCount: () => chunks.countRows(),
    async readable() {
      try {
        for await (const batch of chunks.query().select(['id', 'text'])) void batch
        await chunks.query().fullTextSearch('probe', { columns: 'terms' }).select(['id', '_score']).limit(1).toArray()
        return true
      } catch {
        return false
      }
    },
    async chunksById(ids) {
      const found = new Map<string, StoredChunk>()
      if (ids.length === 0) return found
      const rows = await chunks
        .query()
        .where(`id IN (${inList(ids)})`)
        .select(['id', 'path', 'start_line', 'end_line', 'text'])
        .toArray()
      for (const r of rows as Record<string, unknown>[]) found.set(String(r.id), rowToChunk(r))
      return found
    },
    async chunksOf(paths) {
      if (paths.length === 0) return []
      const rows = await chunks
        .query()
        .where(`path IN (${inList(paths)})`)
        .select(['id', 'path', 'start_line', 'end_line', 'text'])
        .toArray()
      return rows.map(rowToChunk)
    },
    async searchText(query, limit, pathPrefix) {
      const terms = [...new Set(tokenize(query))]
      if (terms.length === 0) return []
      let search = chunks
        .query()
        .fullTextSearch(terms.join(' '), { columns: 'terms' })
        .select(['id', '_score'])
        .limit(limit)
      if (pathPrefix) search = search.where(underPrefix(pathPrefix))
      const rows = await search.toArray()
      return rows.map((r: Record<string, unknown>) => ({ id: String(r.id), score: Number(r._score) }))
    },
    async addVectors(rows, dimension) {
      if (rows.length === 0) return
      vectors ??= await db.createEmptyTable(VECTORS, vectorSchema(arrow, dimension), { mode: 'overwrite' })
      const table = vectors
      await changingVectors(
        async () => {
          await table.add(rows.map((r) => ({ id: r.id, path: r.path, vector: r.vector })))
        },
        (memory) => withRows(memory, rows)
      )
    },
    async removeVectorsOf(paths) {
      if (vectors && paths.length > 0)
        await changingVectors(() => deleteIn(vectors!, 'path', paths), withoutPaths(paths))
    },
    async dropVectors() {
      await changingVectors(
        async () => {
          if (vectors) await db.dropTable(VECTORS)
          vectors = null
        },
        () => null
      )
    },
    async holdVectorsInMemory() {
      if (vectors) await vectorsInMemory(vectors)
      return loaded !== null
    },
    async vectorCount() {
      return vectors ? vectors.countRows() : 0
    },
    async searchVectors(vector, limit, pathPrefix) {
      if (!vectors) return []
      // The first search reads the vectors in the background and is answered by LanceDB meanwhile.
      if (loaded) return scanVectors(loaded, vector, limit, pathPrefix)
      void vectorsInMemory(vectors)
      // With an IVF-PQ index, the candidates are re-ranked by their exact distance (refine).
      let query = vectors
        .vectorSearch(vector)
        .distanceType('cosine')
        .nprobes(20)
        .refineFactor(4)
        .select(['id', '_distance'])
        .limit(limit)
      if (pathPrefix) query = query.where(underPrefix(pathPrefix))
      const rows = await query.toArray()
      return rows.map((r: Record<string, unknown>) => ({ id: String(r.id), similarity: 1 - Number(r._distance) }))
    },
    /**
     * Merges a table's small fragments once there are more than `tolerated` (every add leaves one,
     * and a search visits each), or brings its indexes up to date once many rows are outside them.
     * The versions that made them are dropped too (their files after LanceDB's own grace period).
     */
    async compact(tolerated) {
      await ensureVectorIndex()
      for (const table of vectors ? [chunks, vectors] : [chunks]) {
        const { fragmentStats } = await table.stats()
        if (fragmentStats.numSmallFragments > tolerated || (await unindexedRows(table)) > UNINDEXED_ROWS_TOLERATED) {
          await table.optimize({ cleanupOlderThan: new Date() })
        }
      }
    },
    async clear() {
      await chunks.delete('true')
      await changingVectors(
        async () => {
          if (vectors) await db.dropTable(VECTORS)
          vectors = null
        },
        () => null
      )
    },
    close() {
      chunks.close()
      vectors?.close()
      db.close()
    }
  }
}

export type VectorStore = LanceChunkStore
