import { describe, expect, it } from 'vitest'
import { MemoryVectors, type VectorRow } from '../../../src/main/core/code-index/memory-vectors'

let seed = 1
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1
const randomVector = (dimension: number) => Array.from({ length: dimension }, random)

/** Rows that differ by far less than int8 rounding (~1/127 of a value): only the exact re-score can order them. */
function nearlyEqualRows(dimension: number, count: number): VectorRow[] {
  const base = randomVector(dimension)
  return Array.from({ length: count }, (_, i) => {
    const vector = base.map((v) => v + random() * 1e-4)
    if (i % 17 === 0) vector[i % dimension] += 3 // one large value: the row's other values round coarsely
    if (i % 23 === 0) return { id: `n${i}`, path: `src/n${i % 9}.ts`, vector: [...base] } // exact ties
    if (i === 5) return { id: `n${i}`, path: 'src/zero.ts', vector: new Array<number>(dimension).fill(0) }
    return { id: `n${i}`, path: `src/n${i % 9}.ts`, vector }
  })
}

function randomRows(dimension: number, count: number): VectorRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    path: `src/r${i % 13}.ts`,
    vector: randomVector(dimension)
  }))
}

function pair(dimension: number, rows: VectorRow[], errorBoundScale = 1) {
  const withInt8 = new MemoryVectors(dimension, 0, { errorBoundScale })
  const floatOnly = new MemoryVectors(dimension, 0, { int8FirstPass: false })
  withInt8.add(rows)
  floatOnly.add(rows)
  return { withInt8, floatOnly }
}

const probesNear = (rows: VectorRow[], dimension: number) => [
  ...rows.slice(0, 6).map((r) => Array.from(r.vector).map((v) => v + random() * 1e-3)),
  randomVector(dimension)
]

describe('vector scan with an int8 first pass and an exact re-score', () => {
  it('answers as the float scan does, same hits, same float32 scores, same order of ties, on random and nearly equal vectors', () => {
    for (const dimension of [8, 64, 256]) {
      for (const rows of [randomRows(dimension, 3000), nearlyEqualRows(dimension, 3000)]) {
        const { withInt8, floatOnly } = pair(dimension, rows)
        for (const probe of probesNear(rows, dimension)) {
          for (const limit of [1, 10, 50]) {
            expect(withInt8.nearest(probe, limit)).toEqual(floatOnly.nearest(probe, limit))
            expect(withInt8.nearest(probe, limit, 'src/n3.ts')).toEqual(floatOnly.nearest(probe, limit, 'src/n3.ts'))
          }
        }
      }
    }
  })

  it('keeps answering as the float scan after rows are removed and packed, and after growing', () => {
    const dimension = 64
    const rows = nearlyEqualRows(dimension, 2500)
    const { withInt8, floatOnly } = pair(dimension, rows)
    const removed = Array.from({ length: 6 }, (_, g) => `src/n${g}.ts`) // two thirds of the rows: packed
    withInt8.removePaths(removed)
    floatOnly.removePaths(removed)
    const more = randomRows(dimension, 5000)
    withInt8.add(more)
    floatOnly.add(more)
    expect(withInt8.size).toBe(floatOnly.size)
    for (const probe of [...probesNear(rows, dimension), ...probesNear(more, dimension)])
      expect(withInt8.nearest(probe, 20)).toEqual(floatOnly.nearest(probe, 20))
  })

  it('depends on the error bound: without it the nearly equal vectors come back in another order', () => {
    const dimension = 64
    const rows = nearlyEqualRows(dimension, 3000)
    const { withInt8, floatOnly } = pair(dimension, rows, 0)
    const differing = probesNear(rows, dimension).filter(
      (probe) => JSON.stringify(withInt8.nearest(probe, 10)) !== JSON.stringify(floatOnly.nearest(probe, 10))
    )
    expect(differing.length).toBeGreaterThan(0)
  })
})
