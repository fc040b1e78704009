import { createTwoFilesPatch, diffArrays } from 'diff'
import { toLf } from './text'

/** One reviewable change region, with up to `context` unchanged lines around it. */
export interface Hunk {
  /** Stable within one proposal: `h1`, `h2`, … in file order. */
  id: string
  /** 1-based first line of the hunk on each side (0 when that side is empty). */
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  /** Rows prefixed with ' ', '-' or '+'. */
  lines: string[]
}

/** Line arrays compared for review: LF-normalised; a trailing newline shows as a final empty line. */
const linesOf = (text: string): string[] => (text === '' ? [] : toLf(text).split('\n'))

/**
 * One hunk per run of changed lines, so that two changes with even one unchanged line between them
 * (two blocks of one model edit) are decided apart. Each hunk carries up to `context` unchanged lines
 * on each side; where two changes sit closer than 2×context, the lines between them are shared out
 * (the earlier hunk takes its half first), so hunks never overlap and can be applied one by one.
 */
export function computeHunks(original: string, proposed: string, context = 3): Hunk[] {
  const rows = diffRows(linesOf(original), linesOf(proposed))
  const runs: Array<{ start: number; end: number }> = []
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].op === ' ') continue
    const last = runs[runs.length - 1]
    if (last && last.end === i) last.end = i + 1
    else runs.push({ start: i, end: i + 1 })
  }
  // The unchanged lines after run n that it keeps as context; the next run may take what is left.
  const trailingOf = (n: number): number => {
    const gap = (n + 1 < runs.length ? runs[n + 1].start : rows.length) - runs[n].end
    return n + 1 < runs.length ? Math.min(context, Math.ceil(gap / 2)) : Math.min(context, gap)
  }
  return runs.map((run, n) => {
    const gapBefore = run.start - (n > 0 ? runs[n - 1].end : 0)
    const leading = n === 0 ? Math.min(context, gapBefore) : Math.min(context, gapBefore - trailingOf(n - 1))
    return toHunk(rows.slice(run.start - leading, run.end + trailingOf(n)), n + 1)
  })
}

type Row = { op: ' ' | '-' | '+'; text: string; oldNo: number; newNo: number }

function diffRows(oldLines: string[], newLines: string[]): Row[] {
  const rows: Row[] = []
  let oldNo = 1
  let newNo = 1
  for (const change of diffArrays(oldLines, newLines)) {
    for (const text of change.value) {
      if (change.added) rows.push({ op: '+', text, oldNo, newNo: newNo++ })
      else if (change.removed) rows.push({ op: '-', text, oldNo: oldNo++, newNo })
      else rows.push({ op: ' ', text, oldNo: oldNo++, newNo: newNo++ })
    }
  }
  return rows
}

function toHunk(rows: Row[], n: number): Hunk {
  const oldRows = rows.filter((r) => r.op !== '+')
  const newRows = rows.filter((r) => r.op !== '-')
  return {
    id: `h${n}`,
    oldStart: oldRows.length ? oldRows[0].oldNo : rows[0].oldNo - 1,
    oldLines: oldRows.length,
    newStart: newRows.length ? newRows[0].newNo : rows[0].newNo - 1,
    newLines: newRows.length,
    lines: rows.map((r) => r.op + r.text)
  }
}

/**
 * The rows to show a person. A text ending in a newline splits into a final empty line; when the
 * other side is empty (a created or emptied file) that line would show as a phantom `+` or `-` row,
 * so it is left out of what is shown (the hunk itself keeps it, so applying still writes the newline).
 */
export function displayRows(hunk: Pick<Hunk, 'oldLines' | 'newLines' | 'lines'>): string[] {
  const last = hunk.lines[hunk.lines.length - 1]
  const emptySide = hunk.oldLines === 0 || hunk.newLines === 0
  return emptySide && hunk.lines.length > 1 && (last === '+' || last === '-') ? hunk.lines.slice(0, -1) : hunk.lines
}

/** How many old-side and new-side lines the shown rows hold: a header or range that matches what is shown. */
export function displayCounts(hunk: Pick<Hunk, 'oldLines' | 'newLines' | 'lines'>): {
  oldLines: number
  newLines: number
} {
  const rows = displayRows(hunk)
  return {
    oldLines: rows.filter((row) => row[0] !== '+').length,
    newLines: rows.filter((row) => row[0] !== '-').length
  }
}

const oldSide = (h: Hunk): string[] => h.lines.filter((l) => l[0] !== '+').map((l) => l.slice(1))
const newSide = (h: Hunk): string[] => h.lines.filter((l) => l[0] !== '-').map((l) => l.slice(1))

/**
 * Builds the text with only the chosen hunks applied to `original` (the others keep the original
 * lines). Hunks must come from `computeHunks(original, …)`. Returns LF text.
 */
export function applySelectedHunks(original: string, hunks: readonly Hunk[], selectedIds: ReadonlySet<string>): string {
  const lines = linesOf(original)
  const out: string[] = []
  let cursor = 0
  for (const h of hunks) {
    const start = h.oldLines === 0 ? h.oldStart : h.oldStart - 1
    out.push(...lines.slice(cursor, start))
    out.push(...(selectedIds.has(h.id) ? newSide(h) : oldSide(h)))
    cursor = start + h.oldLines
  }
  out.push(...lines.slice(cursor))
  return out.join('\n')
}

export type RebaseResult = { ok: true; content: string } | { ok: false; conflicts: string[] }

/**
 * Re-applies hunks onto text that changed since they were computed: each hunk's old side must still
 * appear exactly, nearest to where it is expected (after the previous hunk). Any hunk that does not
 * → conflict, nothing applied. Returns LF text.
 */
export function rebaseHunks(current: string, hunks: readonly Hunk[]): RebaseResult {
  const lines = linesOf(current)
  const edits: Array<{ at: number; remove: number; insert: string[] }> = []
  const conflicts: string[] = []
  let cursor = 0
  let delta = 0
  for (const h of hunks) {
    const old = oldSide(h)
    const expected = Math.max(cursor, (h.oldLines === 0 ? h.oldStart : h.oldStart - 1) + delta)
    const at = old.length === 0 ? Math.min(expected, lines.length) : findNearest(lines, old, cursor, expected)
    if (at < 0) {
      conflicts.push(h.id)
      continue
    }
    edits.push({ at, remove: old.length, insert: newSide(h) })
    delta = at - (h.oldStart - 1)
    cursor = at + old.length
  }
  if (conflicts.length) return { ok: false, conflicts }
  for (const e of edits.reverse()) lines.splice(e.at, e.remove, ...e.insert)
  return { ok: true, content: lines.join('\n') }
}

function findNearest(lines: readonly string[], pattern: readonly string[], from: number, expected: number): number {
  let best = -1
  for (let i = from; i + pattern.length <= lines.length; i++) {
    let j = 0
    while (j < pattern.length && lines[i + j] === pattern[j]) j++
    if (j === pattern.length && (best < 0 || Math.abs(i - expected) < Math.abs(best - expected))) best = i
    if (best >= 0 && i > expected) break
  }
  return best
}

/** A unified diff, as shown to the model (e.g. what the user changed in a proposal). */
export function unifiedDiff(path: string, before: string, after: string, context = 3): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, toLf(before), toLf(after), undefined, undefined, { context })
    .split('\n')
    .filter((l) => !l.startsWith('====='))
    .join('\n')
}

/** Reverses hunks (new side becomes old side), e.g. to revert an accepted change. */
export function invertHunks(hunks: readonly Hunk[]): Hunk[] {
  return hunks.map((h) => ({
    id: h.id,
    oldStart: h.newStart,
    oldLines: h.newLines,
    newStart: h.oldStart,
    newLines: h.oldLines,
    lines: h.lines.map((l) => (l[0] === '+' ? '-' + l.slice(1) : l[0] === '-' ? '+' + l.slice(1) : l))
  }))
}

/**
 * The ids of `hunks` (from `computeHunks(original, …)`) whose change shows in `written`: the file
 * differs from `original` where the hunk changes it. A hunk the user rejected left the original
 * lines there; one they accepted, or accepted and then edited, did not. So the counts a log records
 * come from what reached the disk, not from what the reviewer was sent.
 */
export function hunksReachingDisk(original: string, hunks: readonly Hunk[], written: string | null): string[] {
  if (written === null) return hunks.map((hunk) => hunk.id)
  const changedSpans = computeHunks(original, written, 0).map(changedSpan)
  return hunks
    .filter((hunk) => changedSpans.some((span) => spansOverlap(span, changedSpan(hunk))))
    .map((hunk) => hunk.id)
}

/** The original lines a hunk removes ([first, last]), or the point between two lines where it inserts (x.5). */
function changedSpan(hunk: Hunk): [number, number] {
  let oldNo = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart
  let first = -1
  let last = -1
  let insertAt = -1
  for (const line of hunk.lines) {
    if (line[0] === '-') {
      if (first < 0) first = oldNo
      last = oldNo
      oldNo++
    } else if (line[0] === '+') {
      if (insertAt < 0) insertAt = oldNo - 0.5
    } else oldNo++
  }
  return first >= 0 ? [first, last] : [insertAt, insertAt]
}

const spansOverlap = ([aStart, aEnd]: [number, number], [bStart, bEnd]: [number, number]): boolean =>
  aStart <= bEnd && bStart <= aEnd
