import type { Definition } from './parser'

/** A piece of a file that is indexed and returned by codebase_search (1-based inclusive lines). */
export interface Chunk {
  path: string
  startLine: number
  endLine: number
  text: string
}

export interface ChunkLimits {
  /** A definition longer than this is split (by its inner definitions, else by lines). */
  maxChars: number
  /** Pieces shorter than this are merged with their neighbours. */
  minChars: number
  /** Lines per chunk for files without a grammar. */
  linesPerChunk: number
}

export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxChars: 1500, minChars: 300, linesPerChunk: 40 }

interface Span {
  start: number
  end: number
}

const spanChars = (lines: readonly string[], span: Span): number => {
  let total = 0
  for (let i = span.start; i <= span.end; i++) total += lines[i].length + 1
  return total
}

const isBlank = (lines: readonly string[], span: Span): boolean => {
  for (let i = span.start; i <= span.end; i++) if (lines[i].trim() !== '') return false
  return true
}

/** Consecutive line windows of at most maxChars (one overlong line stays whole: a line is never cut). */
function splitByLines(lines: readonly string[], span: Span, limits: ChunkLimits): Span[] {
  const pieces: Span[] = []
  let start = span.start
  let chars = 0
  for (let i = span.start; i <= span.end; i++) {
    const size = lines[i].length + 1
    if (i > start && (chars + size > limits.maxChars || i - start >= limits.linesPerChunk)) {
      pieces.push({ start, end: i - 1 })
      start = i
      chars = 0
    }
    chars += size
  }
  pieces.push({ start, end: span.end })
  return pieces
}

/** Definitions directly inside `outer` (sorted by start, outer first): each one not nested in the previous taken. */
function childrenOf(definitions: readonly Span[], outer: Span): Span[] {
  const children: Span[] = []
  let takenEnd = -1
  for (const d of definitions) {
    if (d.start < outer.start || d.end > outer.end || (d.start === outer.start && d.end === outer.end)) continue
    if (d.start <= takenEnd) continue
    children.push(d)
    takenEnd = d.end
  }
  return children
}

/** Covers `span` with definition pieces and the gaps between them, splitting what is too large. */
function segment(
  lines: readonly string[],
  span: Span,
  definitions: readonly Span[],
  limits: ChunkLimits,
  outer: Span | null
): Span[] {
  const children = outer
    ? childrenOf(definitions, outer)
    : childrenOf(definitions, { start: span.start - 1, end: span.end + 1 })
  const pieces: Span[] = []
  let cursor = span.start
  const gap = (from: number, to: number) => {
    if (from > to) return
    const g = { start: from, end: to }
    if (!isBlank(lines, g)) pieces.push(...splitByLines(lines, g, limits))
  }
  for (const child of children) {
    if (child.start < cursor) continue
    gap(cursor, child.start - 1)
    if (spanChars(lines, child) <= limits.maxChars) pieces.push(child)
    else if (childrenOf(definitions, child).length > 0)
      pieces.push(...segment(lines, child, definitions, limits, child))
    else pieces.push(...splitByLines(lines, child, limits))
    cursor = child.end + 1
  }
  gap(cursor, span.end)
  return pieces
}

/** Adjacent small pieces become one chunk while the result stays within maxChars. */
function mergeSmall(lines: readonly string[], pieces: readonly Span[], limits: ChunkLimits): Span[] {
  const merged: Span[] = []
  for (const piece of pieces) {
    const last = merged[merged.length - 1]
    if (last) {
      const lastSize = spanChars(lines, last)
      const size = spanChars(lines, piece)
      const joined = spanChars(lines, { start: last.start, end: piece.end })
      if ((lastSize < limits.minChars || size < limits.minChars) && joined <= limits.maxChars) {
        merged[merged.length - 1] = { start: last.start, end: piece.end }
        continue
      }
    }
    merged.push({ ...piece })
  }
  return merged
}

/**
 * Chunks of a file: definition-sized pieces from its parse (large definitions split by their inner
 * definitions or by lines, small neighbours merged), or line windows when `definitions` is null
 * (no grammar for the file).
 */
export function chunkFile(
  path: string,
  text: string,
  definitions: readonly Definition[] | null,
  limits: ChunkLimits = DEFAULT_CHUNK_LIMITS
): Chunk[] {
  const lines = text.split(/\r?\n/)
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  if (lines.length === 0) return []
  const whole = { start: 0, end: lines.length - 1 }
  const spans = (definitions ?? [])
    .map((d) => ({ start: d.startLine - 1, end: Math.min(d.endLine - 1, whole.end) }))
    .sort((a, b) => a.start - b.start || b.end - a.end)
  const pieces =
    definitions === null
      ? isBlank(lines, whole)
        ? []
        : splitByLines(lines, whole, limits)
      : segment(lines, whole, spans, limits, null)
  return mergeSmall(lines, pieces, limits).map((s) => ({
    path,
    startLine: s.start + 1,
    endLine: s.end + 1,
    text: lines.slice(s.start, s.end + 1).join('\n')
  }))
}

/** A line longer than this is a minified or generated one (hand-written code wraps well before). */
const LONG_LINE_CHARS = 1000
/** Chunks of minified or generated code: larger than code's (its pieces rarely answer a question alone), far fewer of them. */
export const SIZE_CHUNK_CHARS = 4000

/**
 * Minified or generated code: most of its characters in very long lines. Parsing it costs by the
 * byte and finds definitions no line-based chunk can follow (a whole bundle on one line).
 */
export function isMinified(text: string): boolean {
  let inLongLines = 0
  for (let at = 0; at < text.length;) {
    let end = text.indexOf('\n', at)
    if (end < 0) end = text.length
    if (end - at > LONG_LINE_CHARS) inLongLines += end - at
    at = end + 1
  }
  return inLongLines > text.length / 2
}

const isWordChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36

/** Where a window from `start` ends: after a line break in its second half, else between two characters not both of a name. */
function windowEnd(text: string, start: number, windowChars: number): number {
  const end = start + windowChars
  if (end >= text.length) return text.length
  const half = start + Math.floor(windowChars / 2)
  // The last line break in the second half, searched forward from its start (searched back from the
  // end, a line of a megabyte would be scanned back to its start at every window).
  let newline = -1
  for (let at = text.indexOf('\n', half); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) newline = at
  if (newline >= 0) return newline + 1
  for (let cut = end; cut > half; cut--)
    if (!isWordChar(text.charCodeAt(cut - 1)) || !isWordChar(text.charCodeAt(cut))) return cut
  return end
}

/**
 * Chunks of minified or generated code: windows of at most `windowChars` covering the whole text
 * (a long line is cut, never a name in it, so every word stays searchable). Several chunks may
 * share one line.
 */
export function chunkBySize(path: string, text: string, windowChars = SIZE_CHUNK_CHARS): Chunk[] {
  const chunks: Chunk[] = []
  let line = 1
  for (let start = 0; start < text.length;) {
    const end = windowEnd(text, start, windowChars)
    const piece = text.slice(start, end)
    let breaks = 0
    for (let at = piece.indexOf('\n'); at >= 0; at = piece.indexOf('\n', at + 1)) breaks++
    const body = piece.replace(/\r?\n$/, '')
    const endLine = line + breaks - (body.length < piece.length ? 1 : 0)
    if (body.trim() !== '') chunks.push({ path, startLine: line, endLine: Math.max(line, endLine), text: body })
    line += breaks
    start = end
  }
  return chunks
}
