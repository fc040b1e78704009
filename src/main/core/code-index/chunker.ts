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
