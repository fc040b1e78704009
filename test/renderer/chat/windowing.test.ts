import { describe, expect, it } from 'vitest'
import {
  computeOffsets,
  indexAt,
  isAtBottom,
  visibleRange
} from '../../../src/renderer/src/features/chat/virtual/windowing'

describe('windowing', () => {
  const offsets = computeOffsets(5000, (i) => (i % 2 === 0 ? 40 : 100))

  it('computes offsets and total height from item heights', () => {
    expect(Array.from(offsets.slice(0, 4))).toEqual([0, 40, 140, 180])
    expect(offsets[5000]).toBe(2500 * 140)
  })

  it('finds the item under a position by binary search', () => {
    expect(indexAt(offsets, 0)).toBe(0)
    expect(indexAt(offsets, 39)).toBe(0)
    expect(indexAt(offsets, 40)).toBe(1)
    expect(indexAt(offsets, 139)).toBe(1)
    expect(indexAt(offsets, 1e9)).toBe(4999)
  })

  it('renders only the items near the viewport of a 5,000-item list', () => {
    const range = visibleRange(offsets, 140 * 1000, 700, 280)
    expect(range.start).toBe(1996)
    expect(range.end - range.start).toBeLessThan(30)
    expect(offsets[range.start]).toBeLessThanOrEqual(140 * 1000 - 280)
    expect(offsets[range.end]).toBeGreaterThanOrEqual(140 * 1000 + 700 + 280)
  })

  it('clamps at both ends and handles an empty list', () => {
    expect(visibleRange(offsets, 0, 500, 0).start).toBe(0)
    expect(visibleRange(offsets, offsets[5000], 500, 0).end).toBe(5000)
    expect(
      visibleRange(
        computeOffsets(0, () => 10),
        0,
        500,
        100
      )
    ).toEqual({ start: 0, end: 0 })
  })

  it('counts the bottom with slack', () => {
    expect(isAtBottom(900, 100, 1010)).toBe(true)
    expect(isAtBottom(800, 100, 1010)).toBe(false)
  })
})
