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
    expect(await store.searchVectors(vector(12), 5)).toEqual(before)
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
    expect((await store.searchText('render chart', 3)).map((h) => h.id)).toEqual(['a#1', 'c#1'])
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
