import { levenshteinWithin } from './levenshtein'
import { probeOf, type LineIndex } from './line-index'

export interface ScoredWindow {
  /** 0-based start line. */
  at: number
  similarity: number
}

/**
 * Ranks windows of the file against `searchKeys`: windows whose lines equal a search line at the same
 * offset get votes, the best voted (plus the hinted window) are scored by edit-distance similarity.
 * Linear in the file size; small files are scored exhaustively. Windows that cannot reach the best
 * similarity found before them are left out (their distance is only computed up to that bound), so
 * the first result is the best window and the list holds it and any windows tied with it or ranked
 * before it was found.
 */
export function rankWindows(file: LineIndex, searchKeys: readonly string[], hint?: number): ScoredWindow[] {
  const n = searchKeys.length
  const maxStart = file.length - n
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
  const vote = (i: number, js: readonly number[]): void => {
    for (const j of js) {
      const start = i - j
      if (start >= 0 && start <= maxStart && votes[start]++ === 0) voted++
    }
  }
  for (const [i, js] of linesWithKeys(file, offsets)) vote(i, js)
  // No line in common: fall back to shared identifiers, so the closest look-alike is still found.
  if (voted < 3) addTokenVotes(file, searchKeys, maxStart, votes)
  const starts = topVoted(votes, 12)
  if (hint !== undefined) starts.push(Math.min(Math.max(0, hint), maxStart))
  if (file.length * n <= 20_000) for (let s = 0; s <= maxStart; s++) starts.push(s)
  const target = searchKeys.join('\n')
  const seen = new Set<number>()
  const scored: ScoredWindow[] = []
  let best = -1
  for (const at of starts) {
    if (seen.has(at)) continue
    seen.add(at)
    const text = windowText(file, at, n)
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

/** Distinct keys at most this many are looked up by substring; more, and every line is keyed. */
const MAX_PROBES = 12

/** Each line whose key is one of `offsets`' keys, with that key's offsets, in file order per key. */
function linesWithKeys(file: LineIndex, offsets: ReadonlyMap<string, number[]>): Array<[number, number[]]> {
  const found: Array<[number, number[]]> = []
  if (offsets.size > MAX_PROBES) {
    for (let i = 0; i < file.length; i++) {
      const js = offsets.get(file.keyAt(i))
      if (js) found.push([i, js])
    }
    return found
  }
  // ASCII lines are found by a substring of the key; the others (the only ones a non-ASCII key can
  // have) are keyed one by one.
  for (const [key, js] of offsets) {
    const probe = probeOf(key)
    if (probe === null) continue
    for (const i of file.linesHolding(probe)) if (file.isAscii(i) && file.keyAt(i) === key) found.push([i, js])
  }
  for (const i of file.nonAsciiLines()) {
    const js = offsets.get(file.keyAt(i))
    if (js) found.push([i, js])
  }
  return found
}

function windowText(file: LineIndex, at: number, n: number): string {
  const keys: string[] = []
  for (let i = at; i < at + n; i++) keys.push(file.keyAt(i))
  return keys.join('\n')
}

function addTokenVotes(file: LineIndex, searchKeys: readonly string[], maxStart: number, votes: Int32Array): void {
  const linesOfToken = new Map<string, number[]>()
  searchKeys.forEach((k, j) => {
    for (const token of new Set(k.match(TOKEN) ?? [])) {
      const list = linesOfToken.get(token)
      if (list) list.push(j)
      else linesOfToken.set(token, [j])
    }
  })
  // The longest identifiers are the most telling; a handful is enough to find look-alikes.
  const telling = [...linesOfToken]
    .filter(([t]) => t.length >= 4)
    .sort((a, b) => b[0].length - a[0].length)
    .slice(0, 8)
  // Identifiers are ASCII word characters, which keys keep as the text has them: a line's key holds
  // a token exactly when the line does, so one pass over the text per token finds them all.
  // Shortest first: once a word is missing, the longer ones holding it are known missing unsearched.
  for (const [token, js] of telling.sort((a, b) => a[0].length - b[0].length)) {
    for (const i of file.linesHolding(token)) {
      for (const j of js) {
        const start = i - j
        if (start >= 0 && start <= maxStart) votes[start]++
      }
    }
  }
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
