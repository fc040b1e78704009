/**
 * Fuzzy ranking of workspace paths for `@` completion: every character of the query must appear
 * in order; runs of consecutive characters, matches at the start of a path segment and a prefix
 * of the whole path count most, and shorter paths win ties.
 */
const SEPARATORS = '/._-'

export function fuzzyScore(path: string, query: string): number | null {
  const p = path.toLowerCase()
  const q = query.toLowerCase()
  if (q === '') return -path.split('/').length * 10 - path.length * 0.01
  let score = 0
  let from = 0
  let previous = -2
  for (const ch of q) {
    const found = p.indexOf(ch, from)
    if (found < 0) return null
    if (found === previous + 1) score += 5
    if (found === 0 || SEPARATORS.includes(p[found - 1])) score += 3
    score -= (found - from) * 0.1
    previous = found
    from = found + 1
  }
  if (p.startsWith(q)) score += 20
  else if (p.includes(q)) score += 10
  return score - path.length * 0.05
}

/** The best `limit` items for the query, best first; `truncated` when more matched. */
export function rankPaths<T extends { path: string }>(
  items: readonly T[],
  query: string,
  limit: number
): { ranked: T[]; truncated: boolean } {
  const scored: Array<{ item: T; score: number }> = []
  for (const item of items) {
    const score = fuzzyScore(item.path, query)
    if (score !== null) scored.push({ item, score })
  }
  scored.sort((a, b) => b.score - a.score || a.item.path.localeCompare(b.item.path))
  return { ranked: scored.slice(0, limit).map((s) => s.item), truncated: scored.length > limit }
}
