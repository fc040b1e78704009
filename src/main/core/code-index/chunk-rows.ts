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

export function createChunkRows(table: () => LanceDb.Table): ChunkRows {
  let rows: Map<string, number> | null = null
  let reading = false
  let generation = 0

  const read = async () => {
    const started = generation
    reading = true
    try {
      const answer = await table().query().select(['id']).withRowId().toArrow()
      const found = new Map<string, number>()
      for (const batch of answer.batches) {
        const ids = batch.getChild('id')
        const rowIds = batch.getChild('_rowid')
        if (!ids || !rowIds) return
        for (let i = 0; i < batch.numRows; i++) found.set(String(ids.get(i)), Number(rowIds.get(i)))
      }
      if (started === generation) rows = found
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
