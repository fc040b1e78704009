import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, type Dirent } from 'node:fs'
import { relative, sep } from 'node:path'
import picomatch from 'picomatch'
import { DEFAULT_EXCLUDED_DIRS } from './ignore-rules'
import { isWithin, toPosix } from './paths'
import { requiredLiteral } from './required-literal'
import type { SearchDeps, SearchOptions, SearchResult } from './search'
import {
  ancestorScopes,
  Collector,
  MAX_KEPT_LINE,
  displayOf,
  gitignoreAt,
  gitIgnored,
  insideExcluded,
  InvalidRegexError,
  pointsIntoGitignored,
  type Scope
} from './search-common'

/**
 * The search used when rg is not on PATH: same results, order and ignore rules as the rg engine
 * (the tests run both). It walks and reads with blocking calls, in slices of SLICE_MS between turns
 * of the event loop: a promise per open, read and close cost several times the reads themselves
 * over tens of thousands of small files.
 */
const SLICE_MS = 10

/** Rust-syntax regex → JS RegExp for the subset both understand (inline `(?i)` becomes a flag). */
export function compileRegex(source: string): RegExp {
  let flags = ''
  let body = source
  const inline = /^\(\?([imsx]+)\)/.exec(body)
  if (inline) {
    body = body.slice(inline[0].length)
    for (const f of inline[1]) if (f === 'i' || f === 's') flags += f
  }
  try {
    return new RegExp(body, flags)
  } catch (err) {
    throw new InvalidRegexError((err as Error).message)
  }
}

interface Matcher {
  re: RegExp
  /** Whole-file pre-check when there is no literal: multiline so ^ and $ still mean line start and end. */
  anyLine: RegExp
  /** UTF-8 bytes every matching line holds, or null; `whole`: holding them is matching. */
  literal: { bytes: Buffer; whole: boolean } | null
}

export async function searchBuiltin(dirReal: string, options: SearchOptions, deps: SearchDeps): Promise<SearchResult> {
  const re = compileRegex(options.regex)
  const literal = requiredLiteral(re.source, re.flags)
  const bytes = literal === null ? null : Buffer.from(literal.text, 'utf8')
  // A lone surrogate has no UTF-8 form: such a literal cannot be looked for in bytes.
  const usable = bytes !== null && bytes.toString('utf8') === literal?.text
  const matcher: Matcher = {
    re,
    anyLine: new RegExp(re.source, re.flags + 'm'),
    literal: usable ? { bytes, whole: literal.whole } : null
  }
  const collector = new Collector(options)
  const files = statSync(dirReal).isDirectory()
    ? walkFiles(dirReal, options, deps)
    : [{ abs: dirReal, display: displayOf(deps, dirReal) }]
  const reader = new FileReader()
  let sliceStart = performance.now()
  for (const { abs, display } of files) {
    if (collector.done || options.signal?.aborted) break // the cap reached: no further file is read
    const bytes = reader.read(abs)
    if (bytes) searchFile(bytes, display, matcher, options.contextLines, collector)
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      sliceStart = performance.now()
    }
  }
  return { engine: 'builtin', files: collector.files, matches: collector.matches, truncated: collector.truncated }
}

interface WalkDir {
  display: string
  scopes: Scope[]
  entries: Dirent[]
  next: number
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/**
 * The files a search reads, depth first with each directory's entries taken by name: rg's
 * `--sort path` order, so results stream in their final order and a capped search stops the walk.
 */
function* walkFiles(
  dirReal: string,
  options: SearchOptions,
  deps: SearchDeps
): Generator<{ abs: string; display: string }> {
  const glob = options.filePattern
    ? picomatch(options.filePattern, { dot: true, basename: !options.filePattern.includes('/') })
    : null
  const excludeDefaults = !insideExcluded(deps, dirReal)
  const inside = isWithin(deps.rootReal, dirReal)
  const enter = (dir: string, display: string, scopes: Scope[]): WalkDir | null => {
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return null
    }
    const own = gitignoreAt(dir, entries)
    return {
      display,
      scopes: own ? [...scopes, { base: dir, matcher: own }] : scopes,
      entries: entries.sort(byName),
      next: 0
    }
  }
  const rootScopes = pointsIntoGitignored(deps, dirReal) ? [] : ancestorScopes(deps, dirReal)
  const first = enter(dirReal, displayOf(deps, dirReal).replace(/^\.$/, ''), rootScopes)
  const stack: Array<WalkDir & { dir: string }> = first ? [{ ...first, dir: dirReal }] : []
  while (stack.length > 0) {
    const top = stack[stack.length - 1]
    if (top.next === top.entries.length) {
      stack.pop()
      continue
    }
    const child = top.entries[top.next++]
    if (child.name.startsWith('.')) continue // like rg: hidden files are skipped
    const isDir = child.isDirectory()
    if (!isDir && !child.isFile()) continue // rg does not follow symlinks by default
    if (isDir && excludeDefaults && DEFAULT_EXCLUDED_DIRS.has(child.name)) continue
    // Concatenation, not path.join: the directory is already normalised (a join per entry showed in profiles).
    const abs = top.dir.endsWith(sep) ? top.dir + child.name : top.dir + sep + child.name
    const display = top.display === '' ? child.name : `${top.display}/${child.name}`
    if (inside && deps.ignored(display, isDir)) continue
    if (top.scopes.length && gitIgnored(top.scopes, abs, isDir)) continue
    if (isDir) {
      const sub = enter(abs, display, top.scopes)
      if (sub) stack.push({ ...sub, dir: abs })
    } else if (!glob || glob(toPosix(relative(dirReal, abs)))) {
      yield { abs, display }
    }
  }
}

/** Bytes looked at for a NUL before a file is read whole (rg also decides from the first block). */
const BINARY_PROBE = 64 * 1024

/** Reads files into one buffer reused from file to file (grown for larger files). */
class FileReader {
  private buffer = Buffer.allocUnsafe(1 << 20)

  /**
   * The file's bytes, valid until the next call; null when it cannot be read or is binary by its
   * first block: large binaries (native modules, archives) are not read whole only to be skipped.
   */
  read(abs: string): Buffer | null {
    let fd: number
    try {
      fd = openSync(abs, 'r')
    } catch {
      return null
    }
    try {
      // A read of a regular file returns less than asked only at its end: most files take one read.
      let length = readSync(fd, this.buffer, 0, BINARY_PROBE, null)
      if (this.buffer.subarray(0, length).includes(0)) return null
      if (length === BINARY_PROBE) {
        // Room for the whole file at once (plus a byte to see its end); it may still grow while read.
        this.grow(length, fstatSync(fd).size + 1)
        for (;;) {
          if (length === this.buffer.length) this.grow(length, length * 2)
          const wanted = this.buffer.length - length
          const n = readSync(fd, this.buffer, length, wanted, null)
          length += n
          if (n < wanted) break
        }
      }
      return this.buffer.subarray(0, length)
    } catch {
      return null
    } finally {
      closeSync(fd)
    }
  }

  /** Makes room for `size` bytes, keeping the first `kept`. */
  private grow(kept: number, size: number): void {
    if (size <= this.buffer.length) return
    const bigger = Buffer.allocUnsafe(Math.max(size, this.buffer.length * 2))
    this.buffer.copy(bigger, 0, 0, kept)
    this.buffer = bigger
  }
}

function searchFile(
  bytes: Buffer,
  display: string,
  matcher: Matcher,
  contextLines: number,
  collector: Collector
): void {
  if (matcher.literal && !bytes.includes(matcher.literal.bytes)) return
  if (bytes.includes(0)) return // binary
  if (matcher.literal) searchLiteralLines(bytes, display, matcher.re, matcher.literal, contextLines, collector)
  else searchAllLines(bytes, display, matcher, contextLines, collector)
}

/** Decodes the file and tests every line. */
function searchAllLines(
  bytes: Buffer,
  display: string,
  { re, anyLine }: Matcher,
  ctx: number,
  collector: Collector
): void {
  const text = bytes.toString('utf8')
  if (!anyLine.test(text)) return
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  let emittedThrough = -1
  collector.begin(display)
  for (let i = 0; i < lines.length && !collector.done; i++) {
    if (!re.test(lines[i])) continue
    for (let c = Math.max(emittedThrough + 1, i - ctx); c < i; c++) collector.add(c + 1, lines[c], false)
    collector.add(i + 1, lines[i], true)
    emittedThrough = i
    // Trailing context, stopping at the next match (it is emitted as a match).
    for (let c = i + 1; c <= Math.min(lines.length - 1, i + ctx); c++) {
      if (re.test(lines[c])) break
      collector.add(c + 1, lines[c], false)
      emittedThrough = c
    }
  }
  collector.end()
}

interface LineSpan {
  /** 0-based line number; lines end at `\n`, as `text.split('\n')` cuts them. */
  index: number
  start: number
  end: number
}

/**
 * Tests only the lines holding the literal (no other line can match), decoding just those and their
 * context: the output is the one `searchAllLines` gives, without decoding or splitting whole files
 * (minified bundles are megabytes).
 */
function searchLiteralLines(
  bytes: Buffer,
  display: string,
  re: RegExp,
  literal: { bytes: Buffer; whole: boolean },
  ctx: number,
  collector: Collector
): void {
  const matches: Array<LineSpan & { text: string }> = []
  let line = 0
  let counted = 0 // newlines before this offset are counted in `line`
  for (let at = bytes.indexOf(literal.bytes); at !== -1;) {
    const start = at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1
    const end = lineEnd(bytes, at)
    line += countNewlines(bytes, counted, start)
    counted = start
    // A pattern that is the literal matches every line holding it: only the part shown is decoded.
    const text = literal.whole ? preview(bytes, start, end) : bytes.toString('utf8', start, end)
    if (literal.whole || re.test(text)) matches.push({ index: line, start, end, text })
    if (end + 1 >= bytes.length) break
    at = bytes.indexOf(literal.bytes, end + 1)
  }
  if (matches.length === 0) return
  let emittedThrough = -1
  collector.begin(display)
  for (let k = 0; k < matches.length && !collector.done; k++) {
    const { index, start, end, text } = matches[k]
    for (const before of linesBefore(bytes, start, index, Math.min(ctx, index - emittedThrough - 1))) {
      collector.add(before.index + 1, preview(bytes, before.start, before.end), false)
    }
    collector.add(index + 1, text, true)
    emittedThrough = index
    // Trailing context, stopping at the next match (it is emitted as a match).
    const nextMatch = k + 1 < matches.length ? matches[k + 1].index : Infinity
    for (let c = index + 1, from = end + 1; c <= index + ctx && from < bytes.length && c < nextMatch; c++) {
      const to = lineEnd(bytes, from)
      collector.add(c + 1, preview(bytes, from, to), false)
      emittedThrough = c
      from = to + 1
    }
  }
  collector.end()
}

/**
 * Enough of a line for what the Collector keeps (its first MAX_KEPT_LINE characters, at most 3 bytes
 * each, after a CR it strips), without decoding megabytes of a minified line only to cut it.
 */
const PREVIEW_BYTES = 3 * MAX_KEPT_LINE + 8
const preview = (bytes: Buffer, start: number, end: number): string =>
  bytes.toString('utf8', start, Math.min(end, start + PREVIEW_BYTES))

const lineEnd = (bytes: Buffer, from: number): number => {
  const nl = bytes.indexOf(10, from)
  return nl === -1 ? bytes.length : nl
}

function countNewlines(bytes: Buffer, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) if (bytes[i] === 10) n++
  return n
}

/** The `count` lines before the line starting at `start` (line `index`), in file order. */
function linesBefore(bytes: Buffer, start: number, index: number, count: number): LineSpan[] {
  const out: LineSpan[] = []
  let lineStart = start
  for (let i = 1; i <= count; i++) {
    const end = lineStart - 1
    lineStart = end === 0 ? 0 : bytes.lastIndexOf(10, end - 1) + 1
    out.push({ index: index - i, start: lineStart, end })
  }
  return out.reverse()
}
