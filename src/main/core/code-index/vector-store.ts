import { mkdir } from 'node:fs/promises'
import type * as LanceDb from '@lancedb/lancedb'
import type * as Arrow from 'apache-arrow'
import { tableOf } from './arrow-columns'
import { batchesUpTo } from './batches-up-to'
import { createChunkRows } from './chunk-rows'
import type { Chunk } from './chunker'
import { MemoryVectors, type VectorHit } from './memory-vectors'
import { termsColumn } from './terms-column'
import { tokenize } from './tokenize'

export type { VectorHit }

export interface StoredChunk extends Chunk {
  id: string
}

export interface LexicalHit {
  id: string
  /** BM25 score (higher is better; comparable within one query only). */
  score: number
  /** The hit's chunk, when asked for with the search. */
  chunk?: StoredChunk
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
  /** Every file with chunks in the store. */
  storedPaths(): Promise<Set<string>>
  /** Which of these files have chunks in the store. */
  pathsAmong(paths: readonly string[]): Promise<Set<string>>
  /**
   * BM25 over the chunks' terms (the store's own full-text index), each hit with its chunk when
   * `withChunks`. A hybrid query reads only the fused top's chunks (one take): the text of all its
   * 50 full-text hits cost that query more (p50 -6 to -13%, same runs, 3,000 files and 127k chunks).
   */
  searchText(query: string, limit: number, pathPrefix?: string, withChunks?: boolean): Promise<LexicalHit[]>
  addVectors(rows: ReadonlyArray<{ id: string; path: string; vector: number[] }>, dimension: number): Promise<void>
  dropVectors(): Promise<void>
  /** Drops the vectors of these files (their chunks stay). */
  removeVectorsOf(paths: readonly string[]): Promise<void>
  vectorCount(): Promise<number>
  searchVectors(vector: number[], limit: number, pathPrefix?: string): Promise<VectorHit[]>
  /** Makes the ANN vector index once the vectors pass the size where it answers faster than a scan; whether one exists. */
  indexVectors(): Promise<boolean>
  /** Folds new rows into the indexes and merges small fragments (after a run). */
  compact(tolerated: number): Promise<void>
  clear(): Promise<void>
  close(): void
}

const CHUNKS = 'chunks'
const VECTORS = 'vectors'
/**
 * Floats (vectors × dimension) from which LanceDB's ANN index answers instead of the scan in memory
 * (WebAssembly SIMD, exact). The scan costs ~0.4 ns a float while the vectors fit in the CPU's cache
 * (1.1M floats 0.43 ms) and 0.6–0.9 ns past it (memory-bound); an IVF probe has a fixed cost that
 * grows slowly. Synthetic vectors alone, load 5–9: 4M floats of 64 scan 3.7 ms, IVF-Flat 5.0; 6M 5.7
 * against 6.7; 8M 6.3–7.4 against 5.6–7.7; 16M 13.1 against 7.2; 4M of 768 3.2 against IVF-PQ 5.5,
 * 8M of 768 / 1536 7.9 / 5.8 against IVF-PQ 10.8 / 9.3. Inside a hybrid query (same run, load 12):
 * 2.7M floats (42.5k × 64) scanned 8.7 ms against IVF-Flat 10.1; 8.1M (127k × 64) 16.8 against
 * 14.7. So 4M floats (16 MB: 65k vectors of 64, 2.7k of 1536), below where the two meet.
 * With the int8 first pass (`int8-dot.ts`) the scan beats the probe up to 16M floats, but a new
 * process scanning 8.1M floats measured 383–446 MB RSS (IVF: 287–305): memory holds the threshold here.
 */
export const ANN_INDEX_MIN_FLOATS = 4 * 1024 * 1024
/**
 * Vectors up to this size get IVF-Flat, wider ones IVF-PQ re-ranked by exact distance (refine).
 * 117k vectors of 64: IVF-Flat built in 0.4–1 s, p50 4.7–6.4 ms, recall@10 0.97 against the exact
 * scan; IVF-PQ 31 s, 6.6 ms, 0.51 (IVF-HNSW-SQ 91 s, 3 ms, 0.80). 30k of 768 (load 8–9): IVF-Flat
 * 4.5 s, p50 13 ms (p95 188); IVF-PQ 124 s, p50 5.2 ms (p95 8.9); both found the exact top 10.
 */
const IVF_FLAT_MAX_DIMENSION = 256
const annIndexTypeFor = (dimension: number) => (dimension <= IVF_FLAT_MAX_DIMENSION ? 'IvfFlat' : 'IvfPq')
/**
 * LanceDB's caches, per store (its defaults are 6 GB of index data and 1 GB of file metadata, each
 * filled as queries and writes go and never given back). At 124k chunks the full-text, id and path
 * indexes and the IVF partitions took 36 MB; the metadata of each table version is what grows with
 * writes.
 */
const INDEX_CACHE_BYTES = 64 * 1024 * 1024
const METADATA_CACHE_BYTES = 16 * 1024 * 1024
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

const CHUNK_COLUMNS = ['id', 'path', 'start_line', 'end_line', 'text']

/** Chunks read column by column (a row object per chunk, as `toArray` makes them, cost more than the query). */
function chunksFromColumns(answer: Arrow.Table | Arrow.RecordBatch): StoredChunk[] {
  const column = <T>(name: string): T[] => [...(answer.getChild(name) ?? [])] as T[]
  const ids = column<string>('id')
  const paths = column<string>('path')
  const starts = column<number>('start_line')
  const ends = column<number>('end_line')
  const texts = column<string>('text')
  return ids.map((id, i) => ({ id, path: paths[i], startLine: starts[i], endLine: ends[i], text: texts[i] }))
}

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

const vectorIndexOf = async (table: LanceDb.Table): Promise<LanceDb.IndexConfig | undefined> =>
  (await table.listIndices()).find((i) => i.columns.includes('vector'))

export interface LanceChunkStore extends ChunkStore {
  /** Reads the vectors into memory if they fit (once); whether the vector search now scans memory. */
  holdVectorsInMemory(): Promise<boolean>
}

/** Reads the whole vectors table into memory (one answer: each streamed batch would wait for LanceDB's threads again). */
async function loadVectors(table: LanceDb.Table, count: number, dimension: number): Promise<MemoryVectors> {
  const all = await table.query().select(['id', 'path', 'vector']).toArrow()
  return MemoryVectors.fromBatches(all.batches, count, dimension)
}

/** A workspace's chunks and vectors on disk (LanceDB, embedded). Chunks and vectors are separate tables, so lexical search works without vectors. */
export async function openVectorStore(
  dir: string,
  {
    memoryScanMaxFloats = Infinity,
    annIndexMinFloats = ANN_INDEX_MIN_FLOATS
  }: {
    /** A cap below the ANN threshold on what is scanned in memory (0: LanceDB answers every search). */
    memoryScanMaxFloats?: number
    annIndexMinFloats?: number
  } = {}
): Promise<LanceChunkStore> {
  await mkdir(dir, { recursive: true })
  // Loaded when a workspace is first indexed: both weigh on the start of every process otherwise.
  const [lancedb, arrow] = await Promise.all([import('@lancedb/lancedb'), import('apache-arrow')])
  const db = await lancedb.connect(dir, {
    session: new lancedb.Session(BigInt(INDEX_CACHE_BYTES), BigInt(METADATA_CACHE_BYTES))
  })
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

  const chunkRows = createChunkRows(() => chunks)
  /** A write to the chunks table: the row ids known before it may point elsewhere after it. */
  const writingChunks = async (write: () => Promise<unknown>): Promise<void> => {
    chunkRows.forget()
    try {
      await write()
    } finally {
      chunkRows.forget()
    }
  }
  /** The chunks at these row ids if they are the chunks asked for (else null: the caller reads by id). */
  const takeChunks = async (ids: readonly string[], rowIds: number[]): Promise<StoredChunk[] | null> => {
    const taken = chunks.takeRowIds(rowIds).select(CHUNK_COLUMNS)
    const batches = await batchesUpTo(taken, rowIds.length).catch(() => null)
    const found = batches ? batches.flatMap(chunksFromColumns) : []
    const wanted = new Set(ids)
    return found.length === wanted.size && found.every((c) => wanted.has(c.id)) ? found : null
  }

  /**
   * Whether vectors of this many floats are scanned in memory rather than searched by LanceDB: at
   * 2,000 files (9.9k vectors of 64) LanceDB's flat search took 20–30 ms of a hybrid query at load
   * 23, the scan under 1 ms. Past the ANN threshold LanceDB answers, flat until its index is made.
   */
  const scanned = (floats: number) => floats < annIndexMinFloats && floats <= memoryScanMaxFloats
  // The vectors read into memory for the scan (small tables only): read once, then kept up to date
  // by the writes below, so an edit does not cost the next query a read of the whole table.
  let inMemory: Promise<MemoryVectors | null> | null = null
  let loaded: MemoryVectors | null = null
  let writes = 0
  const vectorsInMemory = (table: LanceDb.Table): Promise<MemoryVectors | null> => {
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
  const readVectors = async (table: LanceDb.Table): Promise<MemoryVectors | null> => {
    const seen = writes
    const count = await table.countRows()
    const probe = (count > 0 ? await table.query().select(['vector']).limit(1).toArray() : []) as Array<{
      vector: { length: number }
    }>
    const dimension = probe.length > 0 ? probe[0].vector.length : 0
    // Decided by size alone: an ANN index an older version made below today's threshold is not used
    // (the scan is exact and, there, no slower), and the next run drops it (see indexVectors).
    const memory = scanned(count * dimension) ? await loadVectors(table, count, dimension) : null
    // A write that began meanwhile may be missing from what was read: the next search reads again.
    if (seen === writes) loaded = memory
    return memory
  }
  /**
   * A write to the vectors; `apply` brings the vectors in memory up to date in place (false: read
   * them again). Searches meanwhile go to LanceDB, and a write that overlaps another drops them.
   */
  const changingVectors = async (
    write: () => Promise<void>,
    apply: (memory: MemoryVectors) => boolean
  ): Promise<void> => {
    const kept = loaded
    const mine = ++writes
    inMemory = null
    loaded = null
    await write()
    if (!kept || mine !== writes || !apply(kept) || !scanned(kept.floats)) return
    loaded = kept
    inMemory = Promise.resolve(kept)
  }
  const withoutPaths = (paths: readonly string[]) => (memory: MemoryVectors) => (memory.removePaths(paths), true)

  const deleteIn = async (table: LanceDb.Table, column: string, values: readonly string[]) => {
    for (let i = 0; i < values.length; i += 500)
      await table.delete(`${column} IN (${inList(values.slice(i, i + 500))})`)
  }

  /**
   * An ANN index once the vectors pass the size where a scan costs more; the copy in memory goes then.
   * An index of another type than their width asks for (IVF-PQ of narrow vectors, made by earlier
   * versions) is made again; one below the threshold (an earlier version's was 2M floats) is dropped.
   */
  const indexVectors = async (): Promise<boolean> => {
    if (!vectors) return false
    const table = vectors
    const field = (await table.schema()).fields.find((f) => f.name === 'vector') as
      Arrow.Field<Arrow.DataType> | undefined
    const dimension = field && arrow.DataType.isFixedSizeList(field.type) ? field.type.listSize : 0
    const type = annIndexTypeFor(dimension)
    const existing = await vectorIndexOf(table)
    const wanted = (await table.countRows()) * dimension >= annIndexMinFloats
    if (wanted && existing?.indexType === type) return true
    // Of another type, or below the threshold (made by a version whose threshold was lower): searches
    // scan in memory there, and an index kept would only cost each compaction its update.
    if (existing) await table.dropIndex(existing.name)
    const distanceType = 'cosine'
    const config = type === 'IvfFlat' ? lancedb.Index.ivfFlat({ distanceType }) : lancedb.Index.ivfPq({ distanceType })
    if (wanted) await table.createIndex('vector', { config })
    if (existing || wanted) {
      // Whether the vectors are scanned in memory is decided again at the next search.
      writes++
      loaded = null
      inMemory = null
    }
    return wanted
  }

  /**
   * A BTree on the vectors' path: each one-file update deletes the file's vectors by path, a scan of
   * every row without it (11-15 ms at 117k vectors, 3-7 ms with it; made in 60-120 ms).
   */
  const ensureVectorPathIndex = async (): Promise<void> => {
    if (!vectors || (await vectors.listIndices()).some((i) => i.columns.join(',') === 'path')) return
    if ((await vectors.countRows()) > 0) await vectors.createIndex('path', { config: lancedb.Index.btree() })
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
      const table = tableOf(
        arrow,
        chunkSchema(arrow),
        [
          { kind: 'utf8', values: rows.map((r) => r.id) },
          { kind: 'utf8', values: rows.map((r) => r.path) },
          { kind: 'int32', values: Int32Array.from(rows, (r) => r.startLine) },
          { kind: 'int32', values: Int32Array.from(rows, (r) => r.endLine) },
          { kind: 'utf8', values: rows.map((r) => r.text) },
          termsColumn(rows.map((r) => r.text))
        ],
        rows.length
      )
      await writingChunks(() => chunks.add(table))
    },
    async removePaths(paths) {
      if (paths.length === 0) return
      await writingChunks(() => deleteIn(chunks, 'path', paths))
      if (vectors) await changingVectors(() => deleteIn(vectors!, 'path', paths), withoutPaths(paths))
    },
    chunkCount: () => chunks.countRows(),
    async readable() {
      try {
        // Every data file is opened (a damaged one fails here) through its smallest column: reading
        // the text too cost a pass over all of it (seconds at 100k chunks) before each first run.
        for await (const batch of chunks.query().select(['start_line'])) void batch
        await chunks.query().fullTextSearch('probe', { columns: 'terms' }).select(['id', '_score']).limit(1).toArray()
        return true
      } catch {
        return false
      }
    },
    async chunksById(ids) {
      if (ids.length === 0) return new Map()
      const rowIds = chunkRows.of(ids)
      const taken = rowIds ? await takeChunks(ids, rowIds) : null
      if (taken) return new Map(taken.map((c) => [c.id, c]))
      if (rowIds) chunkRows.forget()
      const answer = await chunks
        .query()
        .where(`id IN (${inList(ids)})`)
        .select(CHUNK_COLUMNS)
        .toArrow()
      return new Map(chunksFromColumns(answer).map((c) => [c.id, c]))
    },
    async chunksOf(paths) {
      if (paths.length === 0) return []
      const answer = await chunks
        .query()
        .where(`path IN (${inList(paths)})`)
        .select(CHUNK_COLUMNS)
        .toArrow()
      return chunksFromColumns(answer)
    },
    async storedPaths() {
      const answer = await chunks.query().select(['path']).toArrow()
      return new Set([...(answer.getChild('path') ?? [])] as string[])
    },
    async pathsAmong(paths) {
      const found = new Set<string>()
      for (let i = 0; i < paths.length; i += 500) {
        const answer = await chunks
          .query()
          .where(`path IN (${inList(paths.slice(i, i + 500))})`)
          .select(['path'])
          .toArrow()
        for (const path of answer.getChild('path') ?? []) found.add(String(path))
      }
      return found
    },
    async searchText(query, limit, pathPrefix, withChunks = false) {
      const terms = [...new Set(tokenize(query))]
      if (terms.length === 0) return []
      let search = chunks
        .query()
        .fullTextSearch(terms.join(' '), { columns: 'terms' })
        .select(withChunks ? [...CHUNK_COLUMNS, '_score'] : ['id', '_score'])
        .limit(limit)
      if (pathPrefix) search = search.where(underPrefix(pathPrefix))
      return (await batchesUpTo(search, limit)).flatMap((batch) => {
        const scores = batch.getChild('_score')
        if (withChunks)
          return chunksFromColumns(batch).map((chunk, i) => ({ id: chunk.id, score: Number(scores?.get(i)), chunk }))
        const ids = batch.getChild('id')
        return Array.from({ length: batch.numRows }, (_, i) => ({
          id: String(ids?.get(i)),
          score: Number(scores?.get(i))
        }))
      })
    },
    async addVectors(rows, dimension) {
      if (rows.length === 0) return
      vectors ??= await db.createEmptyTable(VECTORS, vectorSchema(arrow, dimension), { mode: 'overwrite' })
      const table = vectors
      const floats = new Float32Array(rows.length * dimension)
      rows.forEach((r, i) => floats.set(r.vector, i * dimension))
      const added = tableOf(
        arrow,
        vectorSchema(arrow, dimension),
        [
          { kind: 'utf8', values: rows.map((r) => r.id) },
          { kind: 'utf8', values: rows.map((r) => r.path) },
          { kind: 'vectors', values: floats, dimension }
        ],
        rows.length
      )
      await changingVectors(
        async () => {
          await table.add(added)
        },
        (memory) => memory.add(rows)
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
        () => false
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
      if (loaded) return loaded.nearest(vector, limit, pathPrefix)
      void vectorsInMemory(vectors)
      let query = vectors
        .vectorSearch(vector)
        .distanceType('cosine')
        .nprobes(20)
        .select(['id', '_distance'])
        .limit(limit)
      // IVF-PQ's distances are approximate: its candidates are re-ranked by their exact distance.
      if (annIndexTypeFor(vector.length) === 'IvfPq') query = query.refineFactor(4)
      if (pathPrefix) query = query.where(underPrefix(pathPrefix))
      return (await batchesUpTo(query, limit)).flatMap((batch) => {
        const ids = batch.getChild('id')
        const distances = batch.getChild('_distance')
        return Array.from({ length: batch.numRows }, (_, i) => ({
          id: String(ids?.get(i)),
          similarity: 1 - Number(distances?.get(i))
        }))
      })
    },
    /**
     * Merges a table's small fragments once there are more than `tolerated` (every add leaves one,
     * and a search visits each), or brings its indexes up to date once many rows are outside them.
     * The versions that made them are dropped too (their files after LanceDB's own grace period).
     */
    indexVectors,
    async compact(tolerated) {
      await ensureVectorPathIndex()
      for (const table of vectors ? [chunks, vectors] : [chunks]) {
        const { fragmentStats } = await table.stats()
        if (fragmentStats.numSmallFragments > tolerated || (await unindexedRows(table)) > UNINDEXED_ROWS_TOLERATED) {
          const optimize = () => table.optimize({ cleanupOlderThan: new Date() })
          await (table === chunks ? writingChunks(optimize) : optimize())
        }
      }
    },
    async clear() {
      await writingChunks(() => chunks.delete('true'))
      await changingVectors(
        async () => {
          if (vectors) await db.dropTable(VECTORS)
          vectors = null
        },
        () => false
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
