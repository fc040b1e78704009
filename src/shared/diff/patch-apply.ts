import { numberLines, rankWindows } from './closest'
import { LineIndex, probeOf } from './line-index'
import { crossesIndentKind, detectIndentStyle, reindentReplacement, type IndentStyle } from './reindent'
import { joinLines, matchKey, normalizePunctuation, toLf } from './text'
import { parsePatch, type PatchChunk, type PatchHunk } from './patch-parse'

export class ApplyPatchError extends Error {
  override name = 'ApplyPatchError'
}

type LineView = (line: string) => string
const VIEWS: LineView[] = [
  (l) => l,
  (l) => l.trimEnd(),
  (l) => l.trim(),
  (l) => normalizePunctuation(l).trim(),
  matchKey
]
const TRIM_VIEW = 2
const PUNCTUATION_VIEW = 3
const KEY_VIEW = VIEWS.length - 1

/** A file's lines, each view of a line computed once, on demand; the match keys are the index's. */
class ViewedLines {
  private readonly viewed: Array<Array<string | undefined>> = VIEWS.map(() => [])
  readonly index: LineIndex

  constructor(
    text: string,
    readonly lines: readonly string[]
  ) {
    this.index = new LineIndex(text, lines, this.viewed[KEY_VIEW])
  }

  view(pass: number, i: number): string {
    if (pass === 0) return this.lines[i]
    if (pass === KEY_VIEW) return this.index.keyAt(i)
    return (this.viewed[pass][i] ??= VIEWS[pass](this.lines[i]))
  }
}

/**
 * Index of the first occurrence of `pattern` in `lines` at or after `start`, comparing exactly, then
 * ignoring trailing whitespace, then surrounding whitespace, then Unicode punctuation, then inner
 * whitespace runs. With `eof` the search starts where the pattern would end the file.
 */
export function seekSequence(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  eof: boolean
): number | null {
  return seekWithViews(new ViewedLines(lines.join('\n'), lines), pattern, start, eof)?.index ?? null
}

function seekWithViews(
  file: ViewedLines,
  pattern: readonly string[],
  start: number,
  eof: boolean
): { index: number; exact: boolean } | null {
  if (pattern.length === 0) return { index: start, exact: true }
  const { lines, index } = file
  if (pattern.length > lines.length) return null
  const from = Math.max(0, eof ? lines.length - pattern.length : start)
  const last = lines.length - pattern.length
  // A line equal to a pattern line exactly or once trimmed holds that line trimmed: one scan for the
  // longest finds every start of the first three passes. The exact pass wins wherever it matches, so
  // it is tried during the scan; the trimming passes then try the starts the scan met.
  const trimmed = pattern.map(VIEWS[TRIM_VIEW])
  const offset = longestAt(trimmed)
  const met: number[] = []
  for (const i of mergedStarts(
    holdingOrEvery(index, trimmed[offset], from + offset, last + offset),
    [],
    offset,
    from,
    last
  )) {
    if (matchesUnder(file, 0, pattern, i)) return { index: i, exact: true }
    met.push(i)
  }
  for (let pass = 1; pass <= TRIM_VIEW; pass++) {
    const target = pass === TRIM_VIEW ? trimmed : pattern.map(VIEWS[pass])
    for (const i of met) if (matchesUnder(file, pass, target, i)) return { index: i, exact: false }
  }
  // Normalising punctuation changes only non-ASCII lines: the ASCII ones hold the normalised line.
  const normalised = pattern.map(VIEWS[PUNCTUATION_VIEW])
  const holding =
    normalised[offset] === trimmed[offset]
      ? met.map((i) => i + offset).values()
      : holdingOrEvery(index, normalised[offset], from + offset, last + offset)
  for (const i of mergedStarts(holding, index.nonAsciiLines(), offset, from, last)) {
    if (matchesUnder(file, PUNCTUATION_VIEW, normalised, i)) return { index: i, exact: false }
  }
  // Keys collapse inner whitespace: only lines holding the key's longest run are tried.
  const target = pattern.map(VIEWS[KEY_VIEW])
  for (const i of candidateStarts(index, pattern, from, last))
    if (matchesUnder(file, KEY_VIEW, target, i)) return { index: i, exact: false }
  return null
}

/** Index of the longest string (the first of equals). */
function longestAt(strings: readonly string[]): number {
  let at = 0
  strings.forEach((s, j) => {
    if (s.length > strings[at].length) at = j
  })
  return at
}

/** The lines from `fromLine` to `lastLine` holding `needle`, ascending; every one for an empty needle. */
function* holdingOrEvery(index: LineIndex, needle: string, fromLine: number, lastLine: number): Generator<number> {
  if (needle === '') {
    for (let i = fromLine; i <= lastLine; i++) yield i
  } else if (!needle.includes('\n')) {
    for (const i of index.eachLineHolding(needle, fromLine)) {
      if (i > lastLine) return
      yield i
    }
  }
}

function matchesUnder(file: ViewedLines, pass: number, target: readonly string[], i: number): boolean {
  let j = 0
  while (j < target.length && file.view(pass, i + j) === target[j]) j++
  return j === target.length
}

/**
 * Starts (line − offset) from two ascending line lists, in range, ascending, each once. The holding
 * lines are searched for as they are needed: the next one is looked for only after a start failed.
 */
function* mergedStarts(
  holding: Iterator<number>,
  other: readonly number[],
  offset: number,
  from: number,
  last: number
): Generator<number> {
  let b = 0
  let previous = -1
  let next = holding.next()
  while (!next.done || b < other.length) {
    const fromHolding = b >= other.length || (!next.done && next.value < other[b])
    const line = fromHolding ? (next.value as number) : other[b++]
    const at = line - offset
    if (at > last) return
    if (at >= from && at !== previous) yield (previous = at)
    if (fromHolding) next = holding.next()
  }
}

function* holdingAll(index: LineIndex, probe: string, runs: readonly string[], fromLine: number): Generator<number> {
  for (const i of index.eachLineHolding(probe, fromLine)) {
    const line = index.lines[i]
    if (runs.every((run) => line.includes(run))) yield i
  }
}

/**
 * Where the pattern can start, ascending: under every view a line equal to a pattern line holds the
 * longest whitespace-free run of that line's key when it is ASCII (see LineIndex), so only the lines
 * holding it, and the few non-ASCII lines, are tried. Every start in range when no line gives a run.
 */
function* candidateStarts(index: LineIndex, pattern: readonly string[], from: number, last: number): Generator<number> {
  let probe: string | null = null
  let offset = 0
  pattern.forEach((line, j) => {
    const run = probeOf(matchKey(line))
    if (run !== null && (probe === null || run.length > probe.length)) [probe, offset] = [run, j]
  })
  if (probe === null) {
    for (let i = from; i <= last; i++) yield i
    return
  }
  // The line must hold every run of its key, not only the longest (which may be a common one).
  const runs = matchKey(pattern[offset]).split(/\s+/)
  yield* mergedStarts(holdingAll(index, probe, runs, from + offset), index.nonAsciiLines(), offset, from, last)
}

interface Replacement {
  at: number
  remove: number
  insert: string[]
}

/** Applies the chunks of one file update; the result always ends with a newline (as Roo's does). */
export function applyChunksToContent(original: string, path: string, chunks: readonly PatchChunk[]): string {
  // Every line newline-terminated: the result is cut from this text, never re-joined line by line.
  const lf = toLf(original)
  const text = lf === '' || lf.endsWith('\n') ? lf : lf + '\n'
  const lines = text.split('\n')
  lines.pop()
  const file = new ViewedLines(text, lines)
  let style: IndentStyle | undefined // measured when a match first needs it
  const replacements: Replacement[] = []
  let cursor = 0
  chunks.forEach((chunk, chunkIndex) => {
    if (chunk.changeContext !== null) {
      const found = seekWithViews(file, [chunk.changeContext], cursor, false)
      if (!found)
        throw new ApplyPatchError(
          `Failed to find context '${chunk.changeContext}' in ${path} (chunk ${chunkIndex + 1})`
        )
      cursor = found.index + 1
    }
    if (chunk.oldLines.length === 0) {
      replacements.push({ at: lines.length, remove: 0, insert: [...chunk.newLines] })
      return
    }
    let oldLines = chunk.oldLines
    let newLines = chunk.newLines
    let found = seekWithViews(file, oldLines, cursor, chunk.isEndOfFile)
    if (!found && oldLines[oldLines.length - 1] === '') {
      oldLines = oldLines.slice(0, -1)
      if (newLines[newLines.length - 1] === '') newLines = newLines.slice(0, -1)
      found = seekWithViews(file, oldLines, cursor, chunk.isEndOfFile)
    }
    if (!found) throw new ApplyPatchError(notFoundMessage(file, path, chunk, chunkIndex, cursor))
    const matched = lines.slice(found.index, found.index + oldLines.length)
    const styleOf = (): IndentStyle => (style ??= detectIndentStyle(lines))
    // An exact match keeps the added lines as written, unless they indent with the other kind (tabs/spaces).
    const insert =
      found.exact && !crossesIndentKind(oldLines, matched, newLines, styleOf)
        ? [...newLines]
        : fitToFile(oldLines, matched, newLines, styleOf())
    replacements.push({ at: found.index, remove: oldLines.length, insert })
    cursor = found.index + oldLines.length
  })
  // A file left with no lines is one empty line.
  return spliceLines(file.index, replacements) || '\n'
}

/** The file's text with the replacements made (ascending by line; equal lines in chunk order). */
function spliceLines(index: LineIndex, replacements: readonly Replacement[]): string {
  const { text } = index
  let out = ''
  let kept = 0
  for (const r of [...replacements].sort((a, b) => a.at - b.at)) {
    out += text.slice(kept, index.offsetOf(r.at)) + joinLines(r.insert, r.insert.length > 0 ? '\n' : '')
    kept = index.offsetOf(r.at + r.remove)
  }
  return out + text.slice(kept)
}

/**
 * The chunk matched loosely (other indentation or punctuation): context lines keep the file's own
 * text, added lines are re-indented to the file's style.
 */
function fitToFile(
  oldLines: readonly string[],
  matched: readonly string[],
  newLines: readonly string[],
  style: IndentStyle
): string[] {
  const { lines: reindented } = reindentReplacement(oldLines, matched, newLines, style)
  const contextOf = alignContext(oldLines, newLines)
  return reindented.map((line, i) => (contextOf[i] >= 0 ? matched[contextOf[i]] : line))
}

/** For each new line, the index of the identical old line it keeps (LCS alignment), or −1. */
function alignContext(oldLines: readonly string[], newLines: readonly string[]): number[] {
  const n = oldLines.length
  const m = newLines.length
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = oldLines[i] === newLines[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1])
    }
  }
  const out = new Array<number>(m).fill(-1)
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (oldLines[i] === newLines[j]) out[j++] = i++
    else if (table[i + 1][j] >= table[i][j + 1]) i++
    else j++
  }
  return out
}

function notFoundMessage(
  file: ViewedLines,
  path: string,
  chunk: PatchChunk,
  chunkIndex: number,
  cursor: number
): string {
  const { lines } = file
  const head = `Failed to find expected lines in ${path} (chunk ${chunkIndex + 1}${chunk.changeContext ? `, after '${chunk.changeContext}'` : ''}):\n${chunk.oldLines.join('\n')}`
  // The failed seek's keys are the index's: reused.
  const best = rankWindows(file.index, chunk.oldLines.map(matchKey), cursor)[0]
  if (!best) return head
  const text = numberLines(lines.slice(best.at, best.at + chunk.oldLines.length), best.at + 1)
  return `${head}\n\nClosest match: lines ${best.at + 1}-${best.at + chunk.oldLines.length} (${Math.floor(best.similarity * 100)}% similar):\n${text}`
}

export type PatchFileChange =
  | { type: 'add'; path: string; content: string; overwrites: boolean }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; movePath: string | null; content: string }

/** Every path a patch touches (sources and move targets), in order of appearance. */
export function patchPaths(hunks: readonly PatchHunk[]): string[] {
  const paths: string[] = []
  for (const h of hunks) {
    paths.push(h.path)
    if (h.type === 'UpdateFile' && h.movePath) paths.push(h.movePath)
  }
  return [...new Set(paths)]
}

/**
 * Computes every file change of a patch before anything is written; `read` returns a file's text or
 * null when it does not exist. Any failure throws and nothing is changed.
 */
export function applyPatch(text: string, read: (path: string) => string | null): PatchFileChange[] {
  const hunks = parsePatch(text)
  if (hunks.length === 0) throw new ApplyPatchError('The patch contains no file operations.')
  const current = new Map<string, string | null>()
  const contentOf = (path: string): string | null => (current.has(path) ? current.get(path)! : read(path))
  const changes: PatchFileChange[] = []
  for (const hunk of hunks) {
    if (hunk.type === 'AddFile') {
      const overwrites = contentOf(hunk.path) !== null
      current.set(hunk.path, hunk.contents)
      changes.push({ type: 'add', path: hunk.path, content: hunk.contents, overwrites })
    } else if (hunk.type === 'DeleteFile') {
      if (contentOf(hunk.path) === null)
        throw new ApplyPatchError(`Failed to delete ${hunk.path}: the file does not exist`)
      current.set(hunk.path, null)
      changes.push({ type: 'delete', path: hunk.path })
    } else {
      const original = contentOf(hunk.path)
      if (original === null) throw new ApplyPatchError(`Failed to update ${hunk.path}: the file does not exist`)
      const content = applyChunksToContent(original, hunk.path, hunk.chunks)
      current.set(hunk.path, hunk.movePath ? null : content)
      if (hunk.movePath) current.set(hunk.movePath, content)
      changes.push({ type: 'update', path: hunk.path, movePath: hunk.movePath, content })
    }
  }
  return changes
}
