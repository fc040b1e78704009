/** Edit distance and similarity (pure; two-row dynamic programme). */

export function levenshtein(a: string, b: string): number {
  return levenshteinWithin(a, b, Infinity)
}

/**
 * Edit distance when it is at most `limit`, else any number above `limit`. Only the diagonal band
 * |i − j| ≤ limit is computed and a row whose minimum passes the limit stops it, so ranking
 * candidates against the best so far costs a fraction of the full table.
 */
export function levenshteinWithin(a: string, b: string, limit: number): number {
  if (a === b) return 0
  if (a.length === 0) return b.length
  if (b.length === 0) return a.length
  // A shared prefix and suffix cost nothing; candidate windows share most of their text with the target.
  let start = 0
  while (start < a.length && start < b.length && a.charCodeAt(start) === b.charCodeAt(start)) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--
    endB--
  }
  if (start > 0 || endA < a.length || endB < b.length) {
    a = a.slice(start, endA)
    b = b.slice(start, endB)
    if (a.length === 0) return b.length
    if (b.length === 0) return a.length
  }
  if (a.length > b.length) [a, b] = [b, a]
  if (b.length - a.length > limit) return b.length - a.length
  // Cells outside the band hold `big`, which stands for "more than the limit".
  const big = Math.min(b.length, limit + 1)
  const band = Math.min(limit, b.length)
  let prev = new Int32Array(a.length + 1)
  let cur = new Int32Array(a.length + 1)
  for (let i = 0; i <= a.length; i++) prev[i] = i <= band ? i : big
  for (let j = 1; j <= b.length; j++) {
    const lo = Math.max(1, j - band)
    const hi = Math.min(a.length, j + band)
    cur[lo - 1] = lo === 1 ? (j <= band ? j : big) : big
    let rowMin = cur[lo - 1]
    const bc = b.charCodeAt(j - 1)
    for (let i = lo; i <= hi; i++) {
      const cost = a.charCodeAt(i - 1) === bc ? 0 : 1
      const del = prev[i] + 1
      const ins = cur[i - 1] + 1
      const sub = prev[i - 1] + cost
      let best = del < ins ? (del < sub ? del : sub) : ins < sub ? ins : sub
      if (best > big) best = big
      cur[i] = best
      if (best < rowMin) rowMin = best
    }
    if (hi < a.length) cur[hi + 1] = big
    if (rowMin > limit) return big
    ;[prev, cur] = [cur, prev]
  }
  return prev[a.length]
}

/** 1 − distance / longer length, in [0, 1]. */
export function similarity(a: string, b: string): number {
  const max = Math.max(a.length, b.length)
  return max === 0 ? 1 : 1 - levenshtein(a, b) / max
}
