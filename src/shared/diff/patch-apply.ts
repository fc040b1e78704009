import { numberLines, rankWindows } from './closest'
import { crossesIndentKind, detectIndentStyle, reindentReplacement, type IndentStyle } from './reindent'
import { matchKey, normalizePunctuation } from './text'
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

/**
 * Index of the first occurrence of `pattern` in `lines` at or after `start`, comparing exactly, then
 * ignoring trailing whitespace, then surrounding whitespace, then Unicode punctuation, then inner
 * whitespace runs. With `eof` the search starts where the pattern would end the file.
 */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, eof: boolean): number | null {
  return seekWithViews(lines, pattern, start, eof, VIEWS.length)?.index ?? null
}

function seekWithViews(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  eof: boolean,
  passes: number,
  cache?: Map<LineView, string[]>
): { index: number; exact: boolean } | null {
  if (pattern.length === 0) return { index: start, exact: true }
  if (pattern.length > lines.length) return null
  const from = eof ? lines.length - pattern.length : start
  const last = lines.length - pattern.length
  for (let p = 0; p < passes; p++) {
    const view = VIEWS[p]
    const viewed = viewOf(lines, view, cache)
    const target = pattern.map(view)
    for (let i = Math.max(0, from); i <= last; i++) {
      if (viewed[i] !== target[0]) continue
      let j = 1
      while (j < target.length && viewed[i + j] === target[j]) j++
      if (j === target.length) return { index: i, exact: p === 0 }
    }
  }
  return null
}

function viewOf(lines: readonly string[], view: LineView, cache?: Map<LineView, string[]>): readonly string[] {
  if (view === VIEWS[0]) return lines
  const hit = cache?.get(view)
  if (hit && hit.length === lines.length) return hit
  const viewed = lines.map(view)
  cache?.set(view, viewed)
  return viewed
}

interface Replacement {
  at: number
  remove: number
  insert: string[]
}

/** Applies the chunks of one file update; the result always ends with a newline (as Roo's does). */
export function applyChunksToContent(original: string, path: string, chunks: readonly PatchChunk[]): string {
  const lines = original.replace(/\r\n/g, '\n').split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  let style: IndentStyle | undefined // measured when a match first needs it
  const cache = new Map<LineView, string[]>()
  const replacements: Replacement[] = []
  let cursor = 0
  chunks.forEach((chunk, chunkIndex) => {
    if (chunk.changeContext !== null) {
      const found = seekWithViews(lines, [chunk.changeContext], cursor, false, VIEWS.length, cache)
      if (!found) throw new ApplyPatchError(`Failed to find context '${chunk.changeContext}' in ${path} (chunk ${chunkIndex + 1})`)
      cursor = found.index + 1
    }
    if (chunk.oldLines.length === 0) {
      replacements.push({ at: lines.length, remove: 0, insert: [...chunk.newLines] })
      return
    }
    let oldLines = chunk.oldLines
    let newLines = chunk.newLines
    let found = seekWithViews(lines, oldLines, cursor, chunk.isEndOfFile, VIEWS.length, cache)
    if (!found && oldLines[oldLines.length - 1] === '') {
      oldLines = oldLines.slice(0, -1)
      if (newLines[newLines.length - 1] === '') newLines = newLines.slice(0, -1)
      found = seekWithViews(lines, oldLines, cursor, chunk.isEndOfFile, VIEWS.length, cache)
    }
    if (!found) throw new ApplyPatchError(notFoundMessage(lines, path, chunk, chunkIndex, cursor, cache))
    const matched = lines.slice(found.index, found.index + oldLines.length)
    style ??= detectIndentStyle(lines)
    // An exact match keeps the added lines as written, unless they indent with the other kind (tabs/spaces).
    const insert = found.exact && !crossesIndentKind(oldLines, matched, newLines, style) ? [...newLines] : fitToFile(oldLines, matched, newLines, style)
    replacements.push({ at: found.index, remove: oldLines.length, insert })
    cursor = found.index + oldLines.length
  })
  for (const r of [...replacements].sort((a, b) => b.at - a.at)) lines.splice(r.at, r.remove, ...r.insert)
  return lines.join('\n') + '\n'
}

/**
 * The chunk matched loosely (other indentation or punctuation): context lines keep the file's own
 * text, added lines are re-indented to the file's style.
 */
function fitToFile(oldLines: readonly string[], matched: readonly string[], newLines: readonly string[], style: IndentStyle): string[] {
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

function notFoundMessage(lines: string[], path: string, chunk: PatchChunk, chunkIndex: number, cursor: number, cache: Map<LineView, string[]>): string {
  const head = `Failed to find expected lines in ${path} (chunk ${chunkIndex + 1}${chunk.changeContext ? `, after '${chunk.changeContext}'` : ''}):\n${chunk.oldLines.join('\n')}`
  // The failed seek's last pass already keyed every line: reuse it.
  const best = rankWindows(viewOf(lines, matchKey, cache), chunk.oldLines.map(matchKey), cursor)[0]
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
      if (contentOf(hunk.path) === null) throw new ApplyPatchError(`Failed to delete ${hunk.path}: the file does not exist`)
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
