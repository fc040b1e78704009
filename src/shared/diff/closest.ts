import { similarity } from './levenshtein'

export interface ScoredWindow {
  /** 0-based start line. */
  at: number
  similarity: number
}

/**
 * Ranks windows of `keys` against `searchKeys`: windows whose lines equal a search line at the same
 * offset get votes, the best voted (plus the hinted window) are scored by edit-distance similarity.
 * Linear in the file size; small files are scored exhaustively.
 */
export function rankWindows(keys: readonly string[], searchKeys: readonly string[], hint?: number): ScoredWindow[] {
  const n = searchKeys.length
  const maxStart = keys.length - n
  if (maxStart < 0 || n === 0) return []
  const offsets = new Map<string, number[]>()
  searchKeys.forEach((k, j) => {
    if (k.length < 2) return // blank lines and lone braces would vote for everything
    const list = offsets.get(k)
    if (list) list.push(j)
    else offsets.set(k, [j])
  })
  const votes = new Map<number, number>()
  keys.forEach((k, i) => {
    const js = offsets.get(k)
    if (!js) return
    for (const j of js) {
      const start = i - j
      if (start >= 0 && start <= maxStart) votes.set(start, (votes.get(start) ?? 0) + 1)
    }
  })
  const starts = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 12).map(([s]) => s)
  if (hint !== undefined) starts.push(Math.min(Math.max(0, hint), maxStart))
  if (keys.length * n <= 20_000) for (let s = 0; s <= maxStart; s++) starts.push(s)
  const target = searchKeys.join('\n')
  const seen = new Set<number>()
  const scored: ScoredWindow[] = []
  for (const at of starts) {
    if (seen.has(at)) continue
    seen.add(at)
    scored.push({ at, similarity: similarity(target, keys.slice(at, at + n).join('\n')) })
  }
  const distance = (s: ScoredWindow): number => (hint === undefined ? 0 : Math.abs(s.at - hint))
  return scored.sort((a, b) => b.similarity - a.similarity || distance(a) - distance(b))
}

/** `N | text` rows, numbers right-aligned. */
export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  const width = String(firstLineNumber + lines.length - 1).length
  return lines.map((l, i) => `${String(firstLineNumber + i).padStart(width)} | ${l}`).join('\n')
}
