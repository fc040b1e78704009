/**
 * Pure arithmetic of the windowed list: item offsets from measured (or estimated) heights and the
 * slice of items that overlaps the viewport.
 */

/** offsets[i] = top of item i; offsets[n] = total height. */
export function computeOffsets(count: number, heightOf: (index: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1)
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i] + heightOf(i)
  return offsets
}

/** Index of the item containing `y` (the last item whose top is ≤ y). */
export function indexAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1
  if (count <= 0) return 0
  let low = 0
  let high = count - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if (offsets[mid] <= y) low = mid
    else high = mid - 1
  }
  return low
}

export interface VisibleRange {
  /** First rendered index (inclusive). */
  start: number
  /** Last rendered index (exclusive). */
  end: number
}

/** The items overlapping [scrollTop, scrollTop + viewport], widened by `overscanPx` on each side. */
export function visibleRange(
  offsets: Float64Array,
  scrollTop: number,
  viewportHeight: number,
  overscanPx: number
): VisibleRange {
  const count = offsets.length - 1
  if (count <= 0) return { start: 0, end: 0 }
  const start = indexAt(offsets, Math.max(0, scrollTop - overscanPx))
  const bottom = scrollTop + viewportHeight + overscanPx
  let end = indexAt(offsets, bottom) + 1
  if (end > count) end = count
  return { start, end: Math.max(end, start + 1) }
}

/** "At the bottom" with a little slack, so sub-pixel scroll positions still count. */
export const isAtBottom = (scrollTop: number, viewportHeight: number, totalHeight: number, slack = 24): boolean =>
  scrollTop + viewportHeight >= totalHeight - slack
