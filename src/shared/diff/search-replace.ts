import { parseSearchReplace, type SearchReplaceBlock } from './search-replace-parse'
import { detectIndentStyle, reindentReplacement, type IndentStyle } from './reindent'
import { numberLines, rankWindows, type ScoredWindow } from './closest'
import { LineIndex } from './line-index'
import { detectLineEnding, joinLines, matchKey, toLf, withLineEnding } from './text'

export { parseSearchReplace } from './search-replace-parse'
export type { SearchReplaceBlock } from './search-replace-parse'

export interface SearchReplaceOptions {
  /** Similarity a non-exact candidate needs (0..1). 1 = only whitespace/quote-tolerant equality. */
  fuzzyThreshold?: number
}

export interface ClosestCandidate {
  startLine: number
  endLine: number
  similarity: number
  text: string
}

export type BlockResult =
  | {
      index: number
      status: 'applied'
      /** 1-based lines the block replaced, in the file as it was when the block applied. */
      startLine: number
      endLine: number
      replacementLines: number
      reindented: boolean
      similarity: number
      hint?: number
    }
  | { index: number; status: 'failed'; error: string; hint?: number; closest?: ClosestCandidate }

export interface SearchReplaceResult {
  /** Null when the diff itself is malformed (nothing applied). */
  content: string | null
  formatError?: string
  blocks: BlockResult[]
  applied: number
  failed: number
}

interface FileState {
  lines: string[]
  /** Match keys, computed on demand (a hole = not computed yet). */
  keys: Array<string | undefined>
  /** The file's indentation style, measured when the first replacement needs it. */
  style?: IndentStyle
  edits: Array<{ at: number; removed: number; added: number }>
  /** The lines as a searchable index; dropped when a block changes them. */
  index?: LineIndex
}

/** Applies every block it can, in order; each block gets its own result. */
export function applySearchReplace(
  original: string,
  diff: string,
  options: SearchReplaceOptions = {}
): SearchReplaceResult {
  const parsed = parseSearchReplace(diff)
  if (!parsed.ok) return { content: null, formatError: parsed.error, blocks: [], applied: 0, failed: 0 }
  const eol = detectLineEnding(original)
  const text = toLf(original)
  const lines = text.split('\n')
  const keys = new Array<string | undefined>(lines.length)
  const state: FileState = { lines, keys, edits: [], index: new LineIndex(text, lines, keys) }
  const threshold = options.fuzzyThreshold ?? 1
  const blocks = parsed.blocks.map((block) => applyBlock(state, block, threshold))
  const applied = blocks.filter((b) => b.status === 'applied').length
  return {
    // Nothing applied (the failure path models hit most): the text is unchanged, no need to rebuild it.
    content: applied === 0 ? original : withLineEnding(joinLines(state.lines), eol),
    blocks,
    applied,
    failed: blocks.length - applied
  }
}

function applyBlock(state: FileState, block: SearchReplaceBlock, threshold: number): BlockResult {
  const hint = block.startLine
  const { search, replace } = block
  if (search.every((l) => l.trim() === '')) {
    return {
      index: block.index,
      status: 'failed',
      hint,
      error: 'Empty SEARCH content is not allowed: the SEARCH section must contain the exact lines to replace.'
    }
  }
  if (search.join('\n') === replace.join('\n')) {
    return {
      index: block.index,
      status: 'failed',
      hint,
      error: 'SEARCH and REPLACE content are identical: the block would change nothing.'
    }
  }
  const hintIndex = hint === undefined ? undefined : shiftedHint(state, hint - 1)
  const found = locate(state, search, hintIndex, threshold)
  if ('error' in found)
    return { index: block.index, status: 'failed', hint, error: found.error, closest: found.closest }
  const at = found.at
  const matched = state.lines.slice(at, at + search.length)
  state.style ??= detectIndentStyle(state.lines)
  const { lines: replacement, changed } = reindentReplacement(search, matched, replace, state.style)
  state.lines.splice(at, search.length, ...replacement)
  state.keys.splice(at, search.length, ...replacement.map(matchKey))
  state.edits.push({ at, removed: search.length, added: replacement.length })
  state.index = undefined
  return {
    index: block.index,
    status: 'applied',
    startLine: at + 1,
    endLine: at + search.length,
    replacementLines: replacement.length,
    reindented: changed,
    similarity: found.similarity,
    hint
  }
}

/** A hint refers to the original file; earlier blocks may have moved that line. */
function shiftedHint(state: FileState, index: number): number {
  let shifted = index
  for (const edit of state.edits) if (edit.at < shifted) shifted += edit.added - edit.removed
  return Math.max(0, shifted)
}

type Located = { at: number; similarity: number } | { error: string; closest?: ClosestCandidate }

function locate(state: FileState, search: string[], hint: number | undefined, threshold: number): Located {
  const searchKeys = search.map(matchKey)
  if (hint !== undefined) {
    // With a hint the nearest exact match wins however many there are: look outwards from it.
    const near = nearestExactMatch(state, searchKeys, hint)
    if (near !== null) return { at: near, similarity: 1 }
  } else {
    const exact = exactMatches(state, searchKeys)
    if (exact.length === 1) return { at: exact[0], similarity: 1 }
    if (exact.length > 1) {
      const where = exact
        .slice(0, 8)
        .map((i) => `${i + 1}-${i + search.length}`)
        .join(', ')
      return {
        error:
          `The SEARCH content matches ${exact.length} places (lines ${where}${exact.length > 8 ? ', …' : ''}). ` +
          'Add :start_line: with the line where the intended occurrence starts, or include more surrounding lines.'
      }
    }
  }
  const candidates = rankWindows(indexOf(state), searchKeys, hint)
  const best = candidates[0]
  if (best && threshold < 1 && best.similarity >= threshold) return { at: best.at, similarity: best.similarity }
  return noMatch(state, search.length, hint, threshold, best)
}

function keyAt(state: FileState, i: number): string {
  return (state.keys[i] ??= matchKey(state.lines[i]))
}

function indexOf(state: FileState): LineIndex {
  return (state.index ??= new LineIndex(joinLines(state.lines), state.lines, state.keys))
}

/** The longest identifier-like run in the search keys: a line lacking it cannot match. */
function anchorOf(searchKeys: string[]): { offset: number; token: string } | null {
  let best: { offset: number; token: string } | null = null
  searchKeys.forEach((key, offset) => {
    for (const token of key.match(/\w+/g) ?? []) if (!best || token.length > best.token.length) best = { offset, token }
  })
  return best
}

function matchesAt(
  state: FileState,
  searchKeys: string[],
  anchor: { offset: number; token: string } | null,
  i: number
): boolean {
  if (anchor && !state.lines[i + anchor.offset].includes(anchor.token)) return false
  let j = 0
  while (j < searchKeys.length && keyAt(state, i + j) === searchKeys[j]) j++
  return j === searchKeys.length
}

function exactMatches(state: FileState, searchKeys: string[]): number[] {
  const anchor = anchorOf(searchKeys)
  const last = state.lines.length - searchKeys.length
  const starts = anchor && state.index ? anchoredStarts(state.index, anchor, 0, last) : null
  const out: number[] = []
  if (starts) for (const i of starts) if (matchesAt(state, searchKeys, anchor, i)) out.push(i)
  if (!starts) for (let i = 0; i <= last; i++) if (matchesAt(state, searchKeys, anchor, i)) out.push(i)
  return out
}

/** Lines looked at one by one around a hint before the rest of the file is searched through its index. */
const NEAR_HINT = 1000

/** The exact match nearest the hint (the earlier one on a tie), or null when there is none. */
function nearestExactMatch(state: FileState, searchKeys: string[], hint: number): number | null {
  const anchor = anchorOf(searchKeys)
  const last = state.lines.length - searchKeys.length
  if (last < 0) return null
  const centre = Math.min(Math.max(0, hint), last)
  const outward = (from: number, to: number): number | null => {
    for (let d = from; d <= to && (centre - d >= 0 || centre + d <= last); d++) {
      if (centre - d >= 0 && matchesAt(state, searchKeys, anchor, centre - d)) return centre - d
      if (d > 0 && centre + d <= last && matchesAt(state, searchKeys, anchor, centre + d)) return centre + d
    }
    return null
  }
  const near = outward(0, NEAR_HINT)
  if (near !== null || !anchor || !state.index) return near ?? outward(NEAR_HINT + 1, Infinity)
  // Farther out, only the lines holding the anchor can start a match: nearest first, the earlier on a tie.
  const far = anchoredStarts(state.index, anchor, 0, last).filter((i) => Math.abs(i - centre) > NEAR_HINT)
  far.sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre) || a - b)
  return far.find((i) => matchesAt(state, searchKeys, anchor, i)) ?? null
}

/** Starts in `from…last` whose anchor line holds the anchor token, ascending. */
function anchoredStarts(
  index: LineIndex,
  anchor: { offset: number; token: string },
  from: number,
  last: number
): number[] {
  return index
    .linesHolding(anchor.token, from + anchor.offset)
    .map((line) => line - anchor.offset)
    .filter((i) => i <= last)
}

function noMatch(
  state: FileState,
  n: number,
  hint: number | undefined,
  threshold: number,
  best: ScoredWindow | undefined
): Located {
  const where = hint === undefined ? 'anywhere in the file' : `in the whole file (hint :start_line: ${hint + 1})`
  const need = threshold < 1 ? ` (needs ${Math.round(threshold * 100)}% similarity)` : ''
  if (!best) return { error: `No match found ${where}${need}: the file has fewer lines than the SEARCH block.` }
  const closest: ClosestCandidate = {
    startLine: best.at + 1,
    endLine: best.at + n,
    similarity: Math.round(best.similarity * 1000) / 1000,
    text: numberLines(state.lines.slice(best.at, best.at + n), best.at + 1)
  }
  const pct = Math.floor(best.similarity * 100)
  return {
    error:
      `No match found ${where}${need}. Closest candidate: lines ${closest.startLine}-${closest.endLine} ` +
      `(${pct}% similar):\n${closest.text}\n` +
      'Re-read that part of the file and resend this block with SEARCH text copied exactly.',
    closest
  }
}
