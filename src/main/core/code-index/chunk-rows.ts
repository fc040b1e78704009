import type * as LanceDb from '@lancedb/lancedb'

/**
 * Each chunk's row id in the chunks table, so that a query reads the chunks of its vector hits by row
 * id (a take) instead of by an `id IN` filter through the id's BTree: 10 chunks of 16.7k in 1.77 ms
 * against 2.60 (p50 of 300 each, interleaved, load 15). A row never changes and its id is never
 * reused: a stale row id (its row deleted, or moved by a compaction) reads nothing, which the caller
 * sees by the ids it got back. Every write to the table forgets the row ids (before and after it), so
 * that such misses are rare; they are read again in the background at the next fetch, which goes by
 * `id IN` meanwhile.
 */
export interface ChunkRows {
  /** The row ids of these chunks, or null when they are not all known (a read is started then). */
  of(ids: readonly string[]): number[] | null
  /** A write to the chunks table starts or ended: the row ids known may be wrong. */
  forget(): void
}

/** FNV-1a of a chunk id. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return hash | 0
}

/**
 * Row ids by the hash of their chunk id, open addressing: 12 bytes a slot, twice as many slots as
 * rows (a Map of the id strings held 16 MB of heap at 127k chunks). Two ids with the same hash (a
 * couple of pairs at 127k) get the first one's row: the caller's check of the ids sees it.
 */
class RowsByHash {
  private readonly hashes: Int32Array
  private readonly rows: Float64Array
  private readonly mask: number

  constructor(hashes: readonly number[], rows: readonly number[]) {
    let size = 16
    while (size < hashes.length * 2) size *= 2
    this.mask = size - 1
    this.hashes = new Int32Array(size)
    this.rows = new Float64Array(size).fill(-1)
    hashes.forEach((hash, i) => {
      let slot = hash & this.mask
      while (this.rows[slot] !== -1) slot = (slot + 1) & this.mask
      this.hashes[slot] = hash
      this.rows[slot] = rows[i]
    })
  }

  get(id: string): number | undefined {
    const hash = hashOf(id)
    for (let slot = hash & this.mask; this.rows[slot] !== -1; slot = (slot + 1) & this.mask)
      if (this.hashes[slot] === hash) return this.rows[slot]
    return undefined
  }
}

export function createChunkRows(table: () => LanceDb.Table): ChunkRows {
  let rows: RowsByHash | null = null
  let reading = false
  let generation = 0

  const read = async () => {
    const started = generation
    reading = true
    try {
      const hashes: number[] = []
      const rowIds: number[] = []
      // Batch by batch: the whole id column at once cost tens of MB of RSS at 127k chunks.
      for await (const batch of table().query().select(['id']).withRowId()) {
        const ids = batch.getChild('id')
        const taken = batch.getChild('_rowid')
        if (!ids || !taken) return
        for (let i = 0; i < batch.numRows; i++) {
          hashes.push(hashOf(String(ids.get(i))))
          rowIds.push(Number(taken.get(i)))
        }
        if (started !== generation) return
      }
      if (started === generation) rows = new RowsByHash(hashes, rowIds)
    } catch {
      // the next fetch reads again; `id IN` answers meanwhile
    } finally {
      if (started === generation) reading = false
    }
  }

  return {
    of(ids) {
      if (!rows) {
        if (!reading) void read()
        return null
      }
      const out: number[] = []
      for (const id of ids) {
        const row = rows.get(id)
        if (row === undefined) return null
        out.push(row)
      }
      return out
    },
    forget() {
      generation++
      rows = null
      reading = false
    }
  }
}
