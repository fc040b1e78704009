import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { afterEach, describe, expect, it } from 'vitest'
import { openVectorStore, type VectorStore } from '../../../src/main/core/code-index/vector-store'

let dir = ''
let store: VectorStore | undefined
afterEach(() => {
  store?.close()
  store = undefined
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const chunk = (i: number) => ({
  id: `c${i}`,
  path: `src/f${i % 7}.ts`,
  startLine: 1,
  endLine: 3,
  text: `function f${i}() {}`
})
const vector = (i: number) => [Math.cos(i), Math.sin(i), 1]

async function fragmentsOf(name: string): Promise<number> {
  const db = await lancedb.connect(dir)
  const table = await db.openTable(name)
  const { fragmentStats } = await table.stats()
  table.close()
  db.close()
  return fragmentStats.numFragments
}

describe('vector store compaction', () => {
  it('merges the fragments batches left once there are more than tolerated, keeping every row', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-vectors-'))
    store = await openVectorStore(dir)
    for (let batch = 0; batch < 8; batch++) {
      const rows = Array.from({ length: 5 }, (_, k) => chunk(batch * 5 + k))
      await store.addChunks(rows)
      await store.addVectors(
        rows.map((r, k) => ({ id: r.id, path: r.path, vector: vector(batch * 5 + k) })),
        3
      )
    }
    await store.removePaths(['src/f0.ts'])
    expect(await fragmentsOf('chunks')).toBe(8)

    await store.compact(8) // eight small fragments are tolerated: nothing changes
    expect(await fragmentsOf('chunks')).toBe(8)
    const before = await store.searchVectors(vector(12), 5)

    await store.compact(4)
    expect(await fragmentsOf('chunks')).toBe(1)
    expect(await fragmentsOf('vectors')).toBe(1)
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`)
    const kept = await store.chunksById(ids)
    expect([...kept.keys()].sort()).toEqual(ids.filter((_, i) => i % 7 !== 0).sort())
    // The same ranking; the scores agree to float32 rounding (the first search was LanceDB's, this one scans memory).
    const after = await store.searchVectors(vector(12), 5)
    expect(after.map((hit) => hit.id)).toEqual(before.map((hit) => hit.id))
    after.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(before[i].similarity, 6))
  })
})

describe("deleting a file's vectors by path", () => {
  it("after a run the vectors have a path index; a file's vectors go whether stored before or after it, the others stay", async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-vectors-path-'))
    store = await openVectorStore(dir, { memoryScanMaxFloats: 0 })
    const rows = Array.from({ length: 28 }, (_, i) => chunk(i))
    await store.addChunks(rows)
    await store.addVectors(
      rows.map((r, i) => ({ id: r.id, path: r.path, vector: vector(i) })),
      3
    )
    await store.compact(4)
    // Rows added after the index are outside it until the next compaction: a delete still finds them.
    await store.addVectors([{ id: 'late', path: 'src/f1.ts', vector: vector(99) }], 3)
    await store.removeVectorsOf(['src/f1.ts'])
    await store.removePaths(['src/f2.ts'])
    const db = await lancedb.connect(dir)
    const vectors = await db.openTable('vectors')
    expect((await vectors.listIndices()).map((i) => i.columns.join(','))).toContain('path')
    const left = (await vectors.query().select(['path']).toArray()).map((r) => String(r.path))
    vectors.close()
    db.close()
    expect(left).toHaveLength(20)
    expect(left).not.toContain('src/f1.ts')
    expect(left).not.toContain('src/f2.ts')
    expect(await store.vectorCount()).toBe(20)
  })
})

describe('lexical search in LanceDB (full-text BM25 index over the terms)', () => {
  it('ranks the chunk with the rarer matching terms first, keeps to a folder when asked and forgets removed files', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-fts-'))
    store = await openVectorStore(dir)
    const row = (id: string, path: string, text: string) => ({ id, path, startLine: 1, endLine: 1, text })
    await store.addChunks([
      row('a#1', 'src/a.ts', 'function renderChart(data) { return draw(data) }'),
      row('b#1', 'src/b.ts', 'function loadData(url) { return fetch(url) }'),
      row('c#1', 'lib/c.ts', 'const chartColors = ["red"]; function renderLegend() {}')
    ])
    const hits = await store.searchText('render chart', 3)
    expect(hits.map((h) => h.id)).toEqual(['a#1', 'c#1'])
    expect(hits[0].score).toBeGreaterThan(hits[1].score)
    expect(hits[0].chunk).toBeUndefined()
    // Asked with their chunks (a lexical-only query): no second read by id.
    const [first] = await store.searchText('render chart', 3, undefined, true)
    expect(first).toEqual({
      ...hits[0],
      chunk: row('a#1', 'src/a.ts', 'function renderChart(data) { return draw(data) }')
    })
    expect((await store.searchText('render chart', 3, 'lib')).map((h) => h.id)).toEqual(['c#1'])
    await store.removePaths(['src/a.ts'])
    expect((await store.searchText('render chart', 3)).map((h) => h.id)).toEqual(['c#1'])
    expect(await store.chunkCount()).toBe(2)
    // After the indexes are brought up to date the same answers come from the index itself.
    await store.compact(-1)
    expect((await store.searchText('render chart', 3)).map((h) => h.id)).toEqual(['c#1'])
    expect([...(await store.chunksById(['b#1', 'c#1'])).keys()].sort()).toEqual(['b#1', 'c#1'])
  })
})

describe('reading chunks by id', () => {
  const texts = async (ids: string[]) => {
    const found = await store!.chunksById(ids)
    return ids.map((id) => found.get(id)?.text ?? null)
  }
  /** Asked twice, the second time once the row ids had time to be read. */
  const twice = async (ids: string[]) => {
    const first = await texts(ids)
    await new Promise((resolve) => setTimeout(resolve, 100))
    return [first, await texts(ids)]
  }

  it('returns what the table holds now, after an edit that keeps a chunk id, a removal and a compaction', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-chunks-by-id-'))
    store = await openVectorStore(dir)
    for (let batch = 0; batch < 3; batch++)
      await store.addChunks(Array.from({ length: 10 }, (_, k) => chunk(batch * 10 + k)))
    const old = ['function f1() {}', 'function f9() {}', 'function f20() {}']
    expect(await twice(['c1', 'c9', 'c20'])).toEqual([old, old])
    // src/f1.ts edited (it held c1, c8, c15, c22, c29): its one chunk now is c1 with another text.
    await store.removePaths(['src/f1.ts'])
    await store.addChunks([{ ...chunk(1), text: 'function f1() { return 2 }' }])
    const edited = ['function f1() { return 2 }', 'function f9() {}', 'function f20() {}']
    expect(await twice(['c1', 'c9', 'c20'])).toEqual([edited, edited])
    expect(await twice(['c15', 'c22'])).toEqual([
      [null, null],
      [null, null]
    ])
    await store.compact(0)
    expect(await twice(['c20', 'c1', 'c9'])).toEqual([
      [edited[2], edited[0], edited[1]],
      [edited[2], edited[0], edited[1]]
    ])
  })
})

describe('vector search scanned in memory for a small table', () => {
  // Angles 0.07 apart: no two stored vectors are so close that rounding could swap them.
  const spread = (i: number) => [Math.cos(i * 0.07), Math.sin(i * 0.07), 1]
  const near = (hits: Array<{ id: string; similarity: number }>) => hits.map((h) => h.id)

  it('ranks as LanceDB does, keeps to a folder, and sees vectors added or removed after the first search', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-vectors-mem-'))
    const rows = Array.from({ length: 40 }, (_, i) => chunk(i))
    const seed = await openVectorStore(dir)
    await seed.addChunks(rows)
    await seed.addVectors(
      rows.map((r, i) => ({ id: r.id, path: r.path, vector: spread(i) })),
      3
    )
    seed.close()
    const lance = await openVectorStore(dir, { memoryScanMaxFloats: 0 })
    store = await openVectorStore(dir)
    try {
      expect(await lance.holdVectorsInMemory()).toBe(false)
      expect(await store.holdVectorsInMemory()).toBe(true)
      for (const probe of [spread(3.2), spread(17.3), [2, -1, 0.5]]) {
        const fromLance = await lance.searchVectors(probe, 6)
        const fromMemory = await store.searchVectors(probe, 6)
        expect(near(fromMemory)).toEqual(near(fromLance))
        fromMemory.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(fromLance[i].similarity, 5))
        expect(near(await store.searchVectors(probe, 6, 'src/f2.ts'))).toEqual(
          near(await lance.searchVectors(probe, 6, 'src/f2.ts'))
        )
      }
      await store.removeVectorsOf(['src/f3.ts'])
      expect(near(await store.searchVectors(spread(3), 40))).not.toContain('c3')
      await store.addVectors([{ id: 'c3', path: 'src/f3.ts', vector: spread(3) }], 3)
      expect(near(await store.searchVectors(spread(3), 1))).toEqual(['c3'])
      await store.removePaths(['src/f5.ts'])
      expect(await store.holdVectorsInMemory()).toBe(true) // kept up to date, not read again
      // The vectors kept in memory through those writes rank as the table on disk now does.
      const reread = await openVectorStore(dir, { memoryScanMaxFloats: 0 })
      try {
        expect(near(await store.searchVectors(spread(10.4), 12))).toEqual(
          near(await reread.searchVectors(spread(10.4), 12))
        )
        expect(await store.searchVectors(spread(10.4), 40)).toHaveLength(await reread.vectorCount())
      } finally {
        reread.close()
      }
    } finally {
      lance.close()
    }
  })
})

describe('vector search scanned in memory in WebAssembly SIMD (widths that are a multiple of 4)', () => {
  // Eight wide, on a spiral: no two stored vectors are so close that rounding could swap them.
  const wide = (i: number) => [Math.cos(i * 0.013), Math.sin(i * 0.013), 1, Math.cos(i * 0.0021), 0, 0.5, -1, 0]
  const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id)
  const rowsOf = (from: number, count: number) =>
    Array.from({ length: count }, (_, k) => {
      const i = from + k
      return { id: `w${i}`, path: `src/g${i % 50}.ts`, vector: wide(i) }
    })

  it('ranks as LanceDB does with the same similarities, after growing past its first memory and after many removals', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-vectors-simd-'))
    const seed = await openVectorStore(dir)
    await seed.addVectors(rowsOf(0, 601), 8) // an odd count: the kernel scores two rows at a time
    seed.close()
    store = await openVectorStore(dir)
    const probes = [wide(17.5), wide(410.2), [1, -2, 0.5, 3, 0, 1, 1, -1]]
    const sameAsLance = async (limit: number, prefix?: string) => {
      const lance = await openVectorStore(dir, { memoryScanMaxFloats: 0 })
      try {
        for (const probe of probes) {
          const fromLance = await lance.searchVectors(probe, limit, prefix)
          const fromMemory = await store!.searchVectors(probe, limit, prefix)
          expect(ids(fromMemory)).toEqual(ids(fromLance))
          fromMemory.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(fromLance[i].similarity, 5))
        }
      } finally {
        lance.close()
      }
    }
    expect(await store.holdVectorsInMemory()).toBe(true)
    await sameAsLance(10)
    await sameAsLance(5, 'src/g7.ts')
    // 4,601 rows of 8 floats: past the first 64 kB of WebAssembly memory.
    await store.addVectors(rowsOf(601, 4000), 8)
    expect(await store.holdVectorsInMemory()).toBe(true) // kept up to date, not read again
    await sameAsLance(10)
    // Forty of the fifty files gone: the rows left are packed together.
    await store.removeVectorsOf(Array.from({ length: 40 }, (_, g) => `src/g${g}.ts`))
    expect(await store.holdVectorsInMemory()).toBe(true)
    await sameAsLance(10)
    expect(await store.searchVectors(wide(1), 5000)).toHaveLength(920)
  })
})

describe('ANN vector index past its size', () => {
  const spread = (i: number) => [Math.cos(i * 0.07), Math.sin(i * 0.07), 1]
  const near = (hits: Array<{ id: string }>) => hits.map((h) => h.id)
  const vectorIndexes = async () => {
    const db = await lancedb.connect(dir)
    const table = await db.openTable('vectors')
    const found = (await table.listIndices()).filter((i) => i.columns.includes('vector'))
    table.close()
    db.close()
    return found.map((i) => ({ type: i.indexType, uuid: i.indexUuid }))
  }
  const seed = async (count: number, dimension = 3, vector = spread) => {
    const rows = Array.from({ length: count }, (_, i) => chunk(i))
    const writer = await openVectorStore(dir)
    await writer.addChunks(rows)
    await writer.addVectors(
      rows.map((r, i) => ({ id: r.id, path: r.path, vector: vector(i) })),
      dimension
    )
    writer.close()
  }

  it('is made once the vectors pass the threshold, answers as the scan did, and is kept across a reopen', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-ann-'))
    await seed(40) // 120 floats
    const small = await openVectorStore(dir, { annIndexMinFloats: 121 })
    try {
      expect(await small.indexVectors()).toBe(false) // below the threshold: the scan stays
      expect(await small.holdVectorsInMemory()).toBe(true)
    } finally {
      small.close()
    }
    expect(await vectorIndexes()).toEqual([])

    store = await openVectorStore(dir, { annIndexMinFloats: 120 })
    const probes = [spread(3.2), spread(17.3), spread(31.6)]
    const scanned = []
    for (const probe of probes) scanned.push(near(await store.searchVectors(probe, 5)))
    expect(await store.indexVectors()).toBe(true)
    const [made] = await vectorIndexes()
    expect(made.type).toBe('IvfFlat')
    // LanceDB answers through the index now, not the copy in memory, and finds the same chunks.
    expect(await store.holdVectorsInMemory()).toBe(false)
    for (const [i, probe] of probes.entries()) expect(near(await store.searchVectors(probe, 5))).toEqual(scanned[i])
    expect(near(await store.searchVectors(spread(21), 3, 'src/f6.ts'))).toEqual(['c20', 'c27', 'c13'])
    store.close()

    store = await openVectorStore(dir, { annIndexMinFloats: 120 })
    expect(await store.indexVectors()).toBe(true)
    expect(await vectorIndexes()).toEqual([made]) // kept, not made again
    expect(near(await store.searchVectors(spread(17.3), 5))).toEqual(scanned[1])
  })

  it('scans below the threshold even where an older version made an index, drops that index at the next run, and stops scanning once writes pass the threshold', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-ann-old-'))
    await seed(40) // 120 floats
    // An IVF-Flat index as a version with a lower threshold made it.
    const db = await lancedb.connect(dir)
    const table = await db.openTable('vectors')
    await table.createIndex('vector', { config: lancedb.Index.ivfFlat({ distanceType: 'cosine' }) })
    const flat = async (probe: number[], limit: number) =>
      near(await table.vectorSearch(probe).distanceType('cosine').bypassVectorIndex().limit(limit).toArray())
    try {
      const [made] = await vectorIndexes()
      expect(made.type).toBe('IvfFlat')
      store = await openVectorStore(dir, { annIndexMinFloats: 121 })
      expect(await store.holdVectorsInMemory()).toBe(true) // below the threshold: scanned, index or not
      // Exact: the ranking of LanceDB's flat search over every row, not of the index.
      for (const probe of [spread(3.2), spread(17.3), [2, -1, 0.5]])
        expect(near(await store.searchVectors(probe, 8))).toEqual(await flat(probe, 8))
      expect(await store.indexVectors()).toBe(false)
      expect(await vectorIndexes()).toEqual([])
      expect(await store.holdVectorsInMemory()).toBe(true)
      // One more vector: 123 floats, past the threshold, so LanceDB answers (its index made at the next run).
      await store.addVectors([{ id: 'c40', path: 'src/f5.ts', vector: spread(40) }], 3)
      expect(await store.holdVectorsInMemory()).toBe(false)
      expect(near(await store.searchVectors(spread(40), 1))).toEqual(['c40'])
      expect(await store.indexVectors()).toBe(true)
      expect((await vectorIndexes()).map((i) => i.type)).toEqual(['IvfFlat'])
    } finally {
      table.close()
      db.close()
    }
  })

  it('gives wide vectors (above 256) an IVF-PQ index, whose hits are re-ranked by exact distance', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-ann-wide-'))
    const wide = (i: number) => Array.from({ length: 272 }, (_, k) => Math.sin(i * 0.37 + k * 1.3) + Math.cos(i * k))
    await seed(300, 272, wide)
    store = await openVectorStore(dir, { annIndexMinFloats: 272 })
    expect(await store.indexVectors()).toBe(true)
    expect((await vectorIndexes()).map((i) => i.type)).toEqual(['IvfPq'])
    expect(await store.holdVectorsInMemory()).toBe(false)
    for (const i of [7, 123, 288]) expect(near(await store.searchVectors(wide(i), 3))[0]).toBe(`c${i}`)
  })

  it('replaces an IVF-PQ index an earlier version made with IVF-Flat', async () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-ann-pq-'))
    const wide = (i: number) => Array.from({ length: 16 }, (_, k) => Math.sin(i * 0.37 + k * 1.3))
    await seed(300, 16, wide)
    const db = await lancedb.connect(dir)
    const table = await db.openTable('vectors')
    await table.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine', numSubVectors: 2 }) })
    table.close()
    db.close()
    expect((await vectorIndexes()).map((i) => i.type)).toEqual(['IvfPq'])
    store = await openVectorStore(dir, { annIndexMinFloats: 16 })
    expect(await store.indexVectors()).toBe(true)
    expect((await vectorIndexes()).map((i) => i.type)).toEqual(['IvfFlat'])
    expect(near(await store.searchVectors(wide(123), 1))).toEqual(['c123'])
  })
})
