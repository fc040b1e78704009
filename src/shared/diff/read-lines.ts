/** read_file's pure readers: slice and indentation modes, and `N | text` formatting. */

export const DEFAULT_LINE_LIMIT = 2000
export const MAX_LINE_LENGTH = 2000
const TAB_COLUMNS = 4

export interface ParsedLine {
  lineNumber: number
  content: string
  /** Leading whitespace in columns (tab = 4) divided by 4. */
  indentLevel: number
  isBlank: boolean
  isBlockStart: boolean
}

export interface ReadResult {
  /** Numbered lines only (or an `Error: …` text); headers and notes are the tool's business. */
  content: string
  includedRanges: Array<[number, number]>
  totalLines: number
  returnedLines: number
  wasTruncated: boolean
}

function indentColumns(line: string): number {
  let cols = 0
  for (const ch of line) {
    if (ch === ' ') cols++
    else if (ch === '\t') cols += TAB_COLUMNS
    else break
  }
  return cols
}

const BLOCK_START = /(?::|\{|=>|\bthen|\bdo)\s*$/

export function parseLines(content: string): ParsedLine[] {
  return content.split('\n').map((text, i) => {
    const isBlank = text.trim() === ''
    return {
      lineNumber: i + 1,
      content: text,
      indentLevel: Math.floor(indentColumns(text) / TAB_COLUMNS),
      isBlank,
      isBlockStart: !isBlank && BLOCK_START.test(text)
    }
  })
}

/** Blank lines take the indentation of the previous non-blank line (0 at the start). */
export function effectiveIndents(lines: readonly ParsedLine[]): number[] {
  let last = 0
  return lines.map((l) => (l.isBlank ? last : (last = l.indentLevel)))
}

export function formatLines(
  lines: ReadonlyArray<Pick<ParsedLine, 'lineNumber' | 'content'>>,
  maxLineLength = MAX_LINE_LENGTH
): string {
  if (lines.length === 0) return ''
  const width = String(Math.max(...lines.map((l) => l.lineNumber))).length
  return lines
    .map((l) => {
      const text = l.content.length > maxLineLength ? l.content.slice(0, maxLineLength - 3) + '...' : l.content
      return `${String(l.lineNumber).padStart(width)} | ${text}`
    })
    .join('\n')
}

const errorResult = (message: string, totalLines: number): ReadResult => ({
  content: message,
  includedRanges: [],
  totalLines,
  returnedLines: 0,
  wasTruncated: false
})

/** Lines `offset` (0-based) … `offset + limit − 1`. */
export function readWithSlice(content: string, offset: number, limit = DEFAULT_LINE_LIMIT): ReadResult {
  const lines = content.split('\n')
  const total = lines.length
  const start = Math.max(0, Math.floor(offset))
  if (start >= total) return errorResult(`Error: offset ${start + 1} is beyond file end (${total} lines)`, total)
  const end = Math.min(total, start + Math.max(1, limit))
  const slice = lines.slice(start, end).map((text, i) => ({ lineNumber: start + i + 1, content: text }))
  return {
    content: formatLines(slice),
    includedRanges: [[start + 1, end]],
    totalLines: total,
    returnedLines: end - start,
    wasTruncated: end < total
  }
}

export interface IndentationOptions {
  /** 1-based line the block is built around. */
  anchorLine: number
  /** How many levels above the anchor to climb; 0 = up to the top level. */
  maxLevels?: number
  /** Take whole runs of sibling blocks at the lowest level instead of only the enclosing one. */
  includeSiblings?: boolean
  /** Let comment lines directly above the enclosing block through. */
  includeHeader?: boolean
  limit?: number
  maxLines?: number
}

const COMMENT = /^\s*(\/\/|#|\/\*|\*|--|;|<!--)/

/** The block around `anchorLine`, expanded up and down by indentation until the line cap. */
export function readWithIndentation(content: string, options: IndentationOptions): ReadResult {
  const lines = parseLines(content)
  const total = lines.length
  const anchor = options.anchorLine
  if (!Number.isInteger(anchor) || anchor < 1 || anchor > total) {
    return errorResult(`Error: anchor_line ${anchor} is out of range (1-${total})`, total)
  }
  const levels = effectiveIndents(lines)
  const maxLevels = options.maxLevels ?? 0
  const minLevel = maxLevels <= 0 ? 0 : Math.max(0, levels[anchor - 1] - maxLevels)
  const limit = options.limit ?? DEFAULT_LINE_LIMIT
  const cap = Math.max(1, Math.min(limit, options.maxLines ?? limit, total))
  const siblings = options.includeSiblings ?? false
  const header = options.includeHeader ?? true

  const up = walker(-1)
  const down = walker(1)
  function walker(step: 1 | -1) {
    let next = anchor - 1 + step
    let boundaryTaken = false
    let done = false
    return {
      get done() {
        return done
      },
      /** Index of the next line to take, or −1 when this direction is exhausted. */
      take(): number {
        if (done || next < 0 || next >= total) return ((done = true), -1)
        const i = next
        const level = levels[i]
        if (level < minLevel) return ((done = true), -1)
        if (boundaryTaken) {
          // Past the enclosing line only comments directly above it (its header) come along.
          const isHeaderComment = step < 0 && header && level === minLevel && COMMENT.test(lines[i].content)
          if (!isHeaderComment) return ((done = true), -1)
        } else if (level === minLevel && !siblings && !lines[i].isBlank) {
          boundaryTaken = true
        }
        next += step
        return i
      }
    }
  }

  let first = anchor - 1
  let last = anchor - 1
  let count = 1
  while (count < cap && !(up.done && down.done)) {
    for (const dir of [up, down]) {
      if (count >= cap) break
      const i = dir.take()
      if (i < 0) continue
      first = Math.min(first, i)
      last = Math.max(last, i)
      count++
    }
  }
  const wasTruncated = count >= cap && !(up.done && down.done) && hasMore(up, down)
  while (first < last && lines[first].isBlank) first++
  while (last > first && lines[last].isBlank) last--
  const picked = lines.slice(first, last + 1)
  return {
    content: formatLines(picked),
    includedRanges: [[first + 1, last + 1]],
    totalLines: total,
    returnedLines: picked.length,
    wasTruncated
  }
}

/** Peeks whether either direction could still take a line (without consuming it for real). */
function hasMore(up: { take(): number }, down: { take(): number }): boolean {
  return up.take() >= 0 || down.take() >= 0
}
