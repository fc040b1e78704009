import { levenshteinWithin } from './levenshtein'

export interface ScoredWindow {
  /** 0-based start line. */
  at: number
  similarity: number
}

/**
 * Ranks windows of `keys` against `searchKeys`: windows whose lines equal a search line at the same
 * offset get votes, the best voted (plus the hinted window) are scored by edit-distance similarity.
 * Linear in the file size; small files are scored exhaustively. Windows that cannot reach the best
 * similarity found before them are left out (their distance is only computed up to that bound), so
 * the first result is the best window and the list holds it and any windows tied with it or ranked
 * before it was found.
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
  const votes = new Int32Array(maxStart + 1)
  let voted = 0
  keys.forEach((k, i) => {
    const js = offsets.get(k)
    if (!js) return
    for (const j of js) {
      const start = i - j
      if (start >= 0 && start <= maxStart && votes[start]++ === 0) voted++
    }
  })
  // No line in common: fall back to shared identifiers, so the closest look-alike is still found.
  if (voted < 3) addTokenVotes(keys, searchKeys, maxStart, votes)
  const starts = topVoted(votes, 12)
  if (hint !== undefined) starts.push(Math.min(Math.max(0, hint), maxStart))
  if (keys.length * n <= 20_000) for (let s = 0; s <= maxStart; s++) starts.push(s)
  const target = searchKeys.join('\n')
  const seen = new Set<number>()
  const scored: ScoredWindow[] = []
  let best = -1
  for (const at of starts) {
    if (seen.has(at)) continue
    seen.add(at)
    const text = keys.slice(at, at + n).join('\n')
    const longer = Math.max(target.length, text.length)
    if (longer === 0) {
      scored.push({ at, similarity: 1 })
      best = 1
      continue
    }
    // To tie or beat the best so far, the distance may be at most (1 − best) × longer.
    const limit = best < 0 ? longer : Math.floor((1 - best) * longer + 1e-9)
    const distance = levenshteinWithin(target, text, limit)
    if (distance > limit) continue
    const similarity = 1 - distance / longer
    scored.push({ at, similarity })
    if (similarity > best) best = similarity
  }
  const distance = (s: ScoredWindow): number => (hint === undefined ? 0 : Math.abs(s.at - hint))
  return scored.sort((a, b) => b.similarity - a.similarity || distance(a) - distance(b))
}

/** `N | text` rows, numbers right-aligned. */
export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  const width = String(firstLineNumber + lines.length - 1).length
  return lines.map((l, i) => `${String(firstLineNumber + i).padStart(width)} | ${l}`).join('\n')
}

const TOKEN = /[A-Za-z_$][\w$]{2,}/g

function addTokenVotes(keys: readonly string[], searchKeys: readonly string[], maxStart: number, votes: Int32Array): void {
  const linesOfToken = new Map<string, number[]>()
  searchKeys.forEach((k, j) => {
    for (const token of new Set(k.match(TOKEN) ?? [])) {
      const list = linesOfToken.get(token)
      if (list) list.push(j)
      else linesOfToken.set(token, [j])
    }
  })
  // The longest identifiers are the most telling; a handful is enough to find look-alikes.
  const telling = [...linesOfToken].filter(([t]) => t.length >= 4).sort((a, b) => b[0].length - a[0].length).slice(0, 8)
  if (telling.length === 0) return
  // One native indexOf pass per token over the joined keys instead of a call per line and token;
  // tokens hold no newline, so each hit lies within one line (counted once per line, as before).
  const text = keys.join('\n')
  const starts = lineStarts(keys)
  for (const [token, js] of telling) {
    let lastLine = -1
    let i = 0
    for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + token.length)) {
      // Hits come in order: move the line cursor forward (it crosses each line once per token).
      while (i + 1 < starts.length && starts[i + 1] <= at) i++
      if (i === lastLine) continue
      lastLine = i
      for (const j of js) {
        const start = i - j
        if (start >= 0 && start <= maxStart) votes[start]++
      }
    }
  }
}

/** Offset of each line's first character in `keys.join('\n')`. */
function lineStarts(keys: readonly string[]): Int32Array {
  const starts = new Int32Array(keys.length)
  let offset = 0
  for (let i = 0; i < keys.length; i++) {
    starts[i] = offset
    offset += keys[i].length + 1
  }
  return starts
}

/** Indices of the `k` highest non-zero counts (ties: lower index first). */
function topVoted(votes: Int32Array, k: number): number[] {
  const top: number[] = []
  for (let i = 0; i < votes.length; i++) {
    const v = votes[i]
    if (v === 0 || (top.length === k && v <= votes[top[k - 1]])) continue
    let pos = top.length
    while (pos > 0 && votes[top[pos - 1]] < v) pos--
    top.splice(pos, 0, i)
    if (top.length > k) top.pop()
  }
  return top
}
