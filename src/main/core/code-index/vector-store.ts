import { mkdir } from 'node:fs/promises'
import type * as LanceDb from '@lancedb/lancedb'
import type * as Arrow from 'apache-arrow'
import type { Chunk } from './chunker'

export interface StoredChunk extends Chunk {
  id: string
}

export interface VectorHit {
  id: string
  /** Cosine similarity, 1 = same direction. */
  similarity: number
}

const CHUNKS = 'chunks'
const VECTORS = 'vectors'

const chunkSchema = ({ Schema, Field, Utf8, Int32 }: typeof Arrow) =>
  new Schema([
    new Field('id', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('start_line', new Int32(), false),
    new Field('end_line', new Int32(), false),
    new Field('text', new Utf8(), false)
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

/** A workspace's chunks and vectors on disk (LanceDB, embedded). Chunks and vectors are separate tables, so lexical search works without vectors. */
export async function openVectorStore(dir: string) {
  await mkdir(dir, { recursive: true })
  // Loaded when a workspace is first indexed: both weigh on the start of every process otherwise.
  const [lancedb, arrow] = await Promise.all([import('@lancedb/lancedb'), import('apache-arrow')])
  const db = await lancedb.connect(dir)
  let chunks: LanceDb.Table
  let vectors: LanceDb.Table | null
  try {
    const names = new Set(await db.tableNames())
    chunks = names.has(CHUNKS) ? await openChecked(db, CHUNKS, columnsOf(chunkSchema(arrow))) : await db.createEmptyTable(CHUNKS, chunkSchema(arrow))
    vectors = names.has(VECTORS) ? await openChecked(db, VECTORS, columnsOf(vectorSchema(arrow, 1))) : null
  } catch (err) {
    db.close()
    throw err instanceof StoreLayoutError ? err : new StoreLayoutError((err as Error).message)
  }

  const deleteIn = async (table: LanceDb.Table, column: string, values: readonly string[]) => {
    for (let i = 0; i < values.length; i += 500) await table.delete(`${column} IN (${inList(values.slice(i, i + 500))})`)
  }

  return {
    async addChunks(rows: readonly StoredChunk[]): Promise<void> {
      if (rows.length === 0) return
      await chunks.add(rows.map((r) => ({ id: r.id, path: r.path, start_line: r.startLine, end_line: r.endLine, text: r.text })))
    },
    /** Drops the chunks and vectors of these files. */
    async removePaths(paths: readonly string[]): Promise<void> {
      if (paths.length === 0) return
      await deleteIn(chunks, 'path', paths)
      if (vectors) await deleteIn(vectors, 'path', paths)
    },
    /** Every chunk, page by page (to rebuild the lexical index after a restart). */
    async *allChunks(): AsyncGenerator<StoredChunk[]> {
      for await (const batch of chunks.query().select(['id', 'path', 'start_line', 'end_line', 'text'])) {
        const rows = batch.toArray().map((r: Record<string, unknown>) => ({
          id: String(r.id),
          path: String(r.path),
          startLine: Number(r.start_line),
          endLine: Number(r.end_line),
          text: String(r.text)
        }))
        yield rows
      }
    },
    async chunksById(ids: readonly string[]): Promise<Map<string, StoredChunk>> {
      const found = new Map<string, StoredChunk>()
      if (ids.length === 0) return found
      const rows = await chunks.query().where(`id IN (${inList(ids)})`).toArray()
      for (const r of rows) found.set(String(r.id), { id: String(r.id), path: String(r.path), startLine: Number(r.start_line), endLine: Number(r.end_line), text: String(r.text) })
      return found
    },
    async chunksOf(paths: readonly string[]): Promise<StoredChunk[]> {
      if (paths.length === 0) return []
      const rows = await chunks.query().where(`path IN (${inList(paths)})`).toArray()
      return rows.map((r: Record<string, unknown>) => ({ id: String(r.id), path: String(r.path), startLine: Number(r.start_line), endLine: Number(r.end_line), text: String(r.text) }))
    },
    async addVectors(rows: ReadonlyArray<{ id: string; path: string; vector: number[] }>, dimension: number): Promise<void> {
      if (rows.length === 0) return
      vectors ??= await db.createEmptyTable(VECTORS, vectorSchema(arrow, dimension), { mode: 'overwrite' })
      await vectors.add(rows.map((r) => ({ id: r.id, path: r.path, vector: r.vector })))
    },
    async dropVectors(): Promise<void> {
      if (vectors) await db.dropTable(VECTORS)
      vectors = null
    },
    async vectorCount(): Promise<number> {
      return vectors ? vectors.countRows() : 0
    },
    async searchVectors(vector: number[], limit: number, pathPrefix?: string): Promise<VectorHit[]> {
      if (!vectors) return []
      let query = vectors.vectorSearch(vector).distanceType('cosine').select(['id']).limit(limit)
      if (pathPrefix) query = query.where(`(path = ${literal(pathPrefix)} OR starts_with(path, ${literal(`${pathPrefix}/`)}))`)
      const rows = await query.toArray()
      return rows.map((r: Record<string, unknown>) => ({ id: String(r.id), similarity: 1 - Number(r._distance) }))
    },
    /**
     * Merges a table's small fragments once there are more than `tolerated`: every add leaves one, and
     * a search visits each (23k vectors added in batches searched in 170 ms before compaction). The
     * versions that made them are dropped too (their files after LanceDB's own grace period).
     */
    async compact(tolerated: number): Promise<void> {
      for (const table of vectors ? [chunks, vectors] : [chunks]) {
        const { fragmentStats } = await table.stats()
        if (fragmentStats.numSmallFragments > tolerated) await table.optimize({ cleanupOlderThan: new Date() })
      }
    },
    async clear(): Promise<void> {
      await chunks.delete('true')
      await this.dropVectors()
    },
    close(): void {
      chunks.close()
      vectors?.close()
      db.close()
    }
  }
}

export type VectorStore = Awaited<ReturnType<typeof openVectorStore>>
