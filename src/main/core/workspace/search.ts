import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, statSync, type Dirent } from 'node:fs'
import { open, readdir } from 'node:fs/promises'
import { delimiter, join, relative } from 'node:path'
import picomatch from 'picomatch'
import { DEFAULT_EXCLUDED_DIRS } from './ignore-rules'
import { isWithin, toPosix } from './paths'
import ignore, { type Ignore } from 'ignore'

export interface SearchOptions {
  regex: string
  /** Glob on paths relative to the searched directory; without `/` it matches file names. */
  filePattern?: string
  contextLines: number
  maxResults: number
  /** `auto`: ripgrep when on PATH, else the built-in search. */
  engine?: 'auto' | 'ripgrep' | 'builtin'
  signal?: AbortSignal
}

export interface SearchLine {
  line: number
  text: string
  isMatch: boolean
}

export interface SearchFileResult {
  /** Workspace-relative POSIX path (absolute outside the workspace). */
  path: string
  lines: SearchLine[]
}

export interface SearchResult {
  engine: 'ripgrep' | 'builtin'
  files: SearchFileResult[]
  matches: number
  /** More matches exist beyond `maxResults`. */
  truncated: boolean
}

const MAX_KEPT_LINE = 2000

export class InvalidRegexError extends Error {
  override name = 'InvalidRegexError'
}

export interface SearchDeps {
  rootReal: string
  ignoreFiles: readonly string[]
  ignored(relativePosix: string, isDirectory: boolean): boolean
  /** Absolute path of rg, or null (found once per workspace). */
  ripgrep: string | null
}

/** Looks for `rg` on PATH (once). */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg')
    try {
      if (statSync(candidate).isFile() && spawnSync(candidate, ['--version'], { timeout: 5000 }).status === 0) return candidate
    } catch {
      // not here
    }
  }
  return null
}

/** Collects results in order, stopping one match after the cap so "N of M+" is honest. */
class Collector {
  readonly files: SearchFileResult[] = []
  matches = 0
  truncated = false
  private current: SearchFileResult | null = null
  private lastMatchLine = -1
  constructor(private readonly options: SearchOptions) {}

  get done(): boolean {
    return this.truncated
  }

  begin(path: string): void {
    this.current = { path, lines: [] }
    this.lastMatchLine = -1
  }

  add(line: number, text: string, isMatch: boolean): void {
    if (this.truncated || !this.current) return
    if (this.matches >= this.options.maxResults) {
      if (isMatch) {
        this.truncated = true
        return
      }
      // After the cap only the last match's trailing context is kept.
      if (this.lastMatchLine < 0 || line - this.lastMatchLine > this.options.contextLines) return
    }
    if (isMatch) {
      this.matches++
      this.lastMatchLine = line
    }
    // Minified lines can be megabytes: keep a bounded prefix (the tool cuts further for the model).
    // Both engines drop the line ending, CRLF included.
    const clean = text.replace(/\r?\n?$/, '')
    this.current.lines.push({ line, text: clean.length > MAX_KEPT_LINE ? clean.slice(0, MAX_KEPT_LINE) : clean, isMatch })
  }

  end(): void {
    if (this.current && this.current.lines.some((l) => l.isMatch)) this.files.push(this.current)
    this.current = null
  }
}

export async function searchFiles(dirReal: string, options: SearchOptions, deps: SearchDeps): Promise<SearchResult> {
  const engine = options.engine ?? 'auto'
  if (engine === 'ripgrep' || (engine === 'auto' && deps.ripgrep)) {
    if (!deps.ripgrep) throw new Error('ripgrep (rg) is not on PATH')
    return searchWithRipgrep(deps.ripgrep, dirReal, options, deps)
  }
  return searchBuiltin(dirReal, options, deps)
}

const displayOf = (deps: SearchDeps, abs: string): string =>
  isWithin(deps.rootReal, abs) ? toPosix(relative(deps.rootReal, abs)) : toPosix(abs)

const insideExcluded = (deps: SearchDeps, dir: string): boolean =>
  isWithin(deps.rootReal, dir) && toPosix(relative(deps.rootReal, dir)).split('/').some((s) => DEFAULT_EXCLUDED_DIRS.has(s))

// ---------------------------------------------------------------- ripgrep

/**
 * rg's plain output, not `--json`: JSON mode ignores `--max-columns`, so one minified match line
 * arrived as megabytes of JSON to parse, only for the first 2,000 characters to be kept. Lines over
 * RG_MAX_BYTES bytes come back as a preview of RG_MAX_BYTES characters (at least MAX_KEPT_LINE
 * characters either way) plus a marker the Collector's cut removes; `--null` ends each path with a
 * NUL, so any file name parses.
 */
const RG_MAX_BYTES = 4 * MAX_KEPT_LINE

function ripgrepArgs(dirReal: string, options: SearchOptions, deps: SearchDeps, sorted: boolean): string[] {
  const args = ['--null', '--line-number', '--with-filename', '--no-heading', '--color', 'never', '--no-messages']
  args.push('--max-columns', String(RG_MAX_BYTES), '--max-columns-preview')
  args.push('--no-require-git', '--no-ignore-global', '--no-ignore-dot', '--no-ignore-exclude')
  if (sorted) args.push('--sort', 'path')
  args.push('--context', String(options.contextLines))
  for (const file of deps.ignoreFiles) args.push('--ignore-file', join(deps.rootReal, file))
  if (!insideExcluded(deps, dirReal)) for (const name of DEFAULT_EXCLUDED_DIRS) args.push('--glob', `!${name}`)
  if (pointsIntoGitignored(deps, dirReal)) args.push('--no-ignore-parent')
  if (options.filePattern) args.push('--glob', options.filePattern)
  args.push('-e', options.regex, '--', dirReal)
  return args
}

/** One output line of `rg --null -n`: `path NUL line (':' match | '-' context) text`; null for anything else (`--` separators). */
function parseRipgrepLine(line: Buffer): { path: string; line: number; isMatch: boolean; text: string } | null {
  const nul = line.indexOf(0)
  if (nul <= 0) return null
  let i = nul + 1
  let number = 0
  while (i < line.length && line[i] >= 0x30 && line[i] <= 0x39) number = number * 10 + line[i++] - 0x30
  const kind = line[i]
  if (i === nul + 1 || (kind !== 0x3a && kind !== 0x2d)) return null
  return { path: line.toString('utf8', 0, nul), line: number, isMatch: kind === 0x3a, text: line.toString('utf8', i + 1) }
}

/** The order of a walk that visits each directory's entries by name (rg `--sort path`, the built-in engine). */
function compareWalkOrder(a: string, b: string): number {
  const as = a.split('/')
  const bs = b.split('/')
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] !== bs[i]) return as[i] < bs[i] ? -1 : 1
  }
  return as.length - bs.length
}

/**
 * Capped searches run with `--sort path` (one thread) so the first N results are the same ones the
 * built-in engine finds, and stop rg once the cap is reached. An uncapped search lets rg use every
 * thread (it prints each file's lines together) and sorts the files afterwards.
 */
function searchWithRipgrep(rg: string, dirReal: string, options: SearchOptions, deps: SearchDeps): Promise<SearchResult> {
  const sorted = Number.isFinite(options.maxResults) && options.maxResults < Number.MAX_SAFE_INTEGER
  const collector = new Collector(options)
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ripgrepArgs(dirReal, options, deps, sorted), { cwd: deps.rootReal, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    let pending: Buffer[] = []
    let currentPath: string | null = null
    let skipFile = false
    let stopped = false
    const stop = (): void => {
      stopped = true
      child.stdout.removeAllListeners('data')
      child.kill()
    }
    options.signal?.addEventListener('abort', stop, { once: true })
    const handle = (raw: Buffer): void => {
      const parsed = parseRipgrepLine(raw)
      if (!parsed) return
      if (parsed.path !== currentPath) {
        if (currentPath !== null && !skipFile) collector.end()
        currentPath = parsed.path
        const display = displayOf(deps, parsed.path)
        // Post-filter as a safety net: ignore files are also passed to rg.
        skipFile = isWithin(deps.rootReal, parsed.path) && deps.ignored(display, false)
        if (!skipFile) collector.begin(display)
      }
      if (!skipFile) collector.add(parsed.line, parsed.text, parsed.isMatch)
    }
    child.stdout.on('data', (chunk: Buffer) => {
      // Newlines are looked for in the new chunk only: a multi-megabyte line is never rescanned.
      let from = 0
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
        const piece = chunk.subarray(from, nl)
        handle(pending.length ? Buffer.concat([...pending, piece]) : piece)
        pending = []
        from = nl + 1
        if (collector.done) {
          stop()
          return
        }
      }
      if (from < chunk.length) pending.push(chunk.subarray(from))
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (!collector.done && code === 2 && /regex parse error|error parsing|unclosed|unrecognized/i.test(stderr)) {
        reject(new InvalidRegexError(stderr.replace(/^error: /, '').trim()))
        return
      }
      if (!stopped && pending.length) handle(Buffer.concat(pending))
      if (currentPath !== null && !skipFile) collector.end()
      const files = sorted ? collector.files : [...collector.files].sort((a, b) => compareWalkOrder(a.path, b.path))
      resolve({ engine: 'ripgrep', files, matches: collector.matches, truncated: collector.truncated })
    })
  })
}

// ---------------------------------------------------------------- built-in

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

interface Scope {
  base: string
  matcher: Ignore
}

function gitignoreAt(dir: string, names: readonly Dirent[]): Ignore | null {
  if (!names.some((d) => d.name === '.gitignore')) return null
  try {
    return ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8'))
  } catch {
    return null
  }
}

function ancestorScopes(deps: SearchDeps, dir: string): Scope[] {
  if (!isWithin(deps.rootReal, dir) || dir === deps.rootReal) return []
  const parts = toPosix(relative(deps.rootReal, dir)).split('/')
  const scopes: Scope[] = []
  for (let i = 0; i < parts.length; i++) {
    const base = join(deps.rootReal, ...parts.slice(0, i))
    try {
      const matcher = ignore().add(readFileSync(join(base, '.gitignore'), 'utf8'))
      scopes.push({ base, matcher })
    } catch {
      // no .gitignore here
    }
  }
  return scopes
}

/** A search that points into a gitignored directory searches what is there (as a listing does). */
function pointsIntoGitignored(deps: SearchDeps, dir: string): boolean {
  return gitIgnored(ancestorScopes(deps, dir), dir, true)
}

const gitIgnored = (scopes: readonly Scope[], abs: string, isDir: boolean): boolean =>
  scopes.some(({ base, matcher }) => {
    // abs is below base or equal to it: slice instead of path.relative (once per entry and scope).
    const rel = abs.length > base.length && abs.startsWith(base) ? toPosix(abs.slice(base.length + 1)) : toPosix(relative(base, abs))
    return rel !== '' && matcher.ignores(isDir ? `${rel}/` : rel)
  })

/**
 * The bytes every matching line must contain, when the pattern is a plain word-ish literal: files
 * without them are skipped before decoding (most files, in a typical search).
 */
function requiredLiteral(re: RegExp): Buffer | null {
  return !re.flags.includes('i') && /^[A-Za-z0-9_ \-:;,'"=<>@#%&!~]+$/.test(re.source) ? Buffer.from(re.source, 'utf8') : null
}

/** Directories and files in flight at once: the walk and the reads are syscall-bound, and libuv runs them in parallel. */
const READ_AHEAD = 32

interface WalkDir {
  dir: string
  display: string
  scopes: Scope[]
}

/**
 * The files a search reads, in the order of a walk that takes each directory's entries by name (rg's
 * `--sort path` order). Directories are read in parallel, breadth first; the order comes from sorting.
 */
async function candidateFiles(dirReal: string, options: SearchOptions, deps: SearchDeps): Promise<Array<{ abs: string; display: string }>> {
  const glob = options.filePattern
    ? picomatch(options.filePattern, { dot: true, basename: !options.filePattern.includes('/') })
    : null
  const excludeDefaults = !insideExcluded(deps, dirReal)
  const inside = isWithin(deps.rootReal, dirReal)
  const files: Array<{ abs: string; display: string }> = []
  const queue: WalkDir[] = [
    { dir: dirReal, display: displayOf(deps, dirReal).replace(/^\.$/, ''), scopes: pointsIntoGitignored(deps, dirReal) ? [] : ancestorScopes(deps, dirReal) }
  ]
  const reads: Array<Promise<Dirent[] | null>> = []
  for (let head = 0; head < queue.length; head++) {
    for (let i = reads.length; i < Math.min(queue.length, head + READ_AHEAD); i++) reads.push(readdir(queue[i].dir, { withFileTypes: true }).catch(() => null))
    const children = await reads[head]
    if (options.signal?.aborted) break
    if (!children) continue
    const { dir, display: dirDisplay, scopes } = queue[head]
    const own = gitignoreAt(dir, children)
    const active = own ? [...scopes, { base: dir, matcher: own }] : scopes
    for (const child of children) {
      if (child.name.startsWith('.')) continue // like rg: hidden files are skipped
      const abs = join(dir, child.name)
      const isDir = child.isDirectory()
      if (!isDir && !child.isFile()) continue // rg does not follow symlinks by default
      if (isDir && excludeDefaults && DEFAULT_EXCLUDED_DIRS.has(child.name)) continue
      const display = dirDisplay === '' ? child.name : `${dirDisplay}/${child.name}`
      if (inside && deps.ignored(display, isDir)) continue
      if (active.length && gitIgnored(active, abs, isDir)) continue
      if (isDir) queue.push({ dir: abs, display, scopes: active })
      else if (!glob || glob(toPosix(relative(dirReal, abs)))) files.push({ abs, display })
    }
  }
  return files.sort((a, b) => compareWalkOrder(a.display, b.display))
}

/** Bytes looked at for a NUL before a file is read whole (rg also decides from the first block). */
const BINARY_PROBE = 64 * 1024

/**
 * A file's bytes, or null when it cannot be read or is binary by its first block: large binaries
 * (native modules, archives) are not read whole only to be skipped.
 */
async function readUnlessBinary(abs: string): Promise<Buffer | null> {
  const handle = await open(abs, 'r').catch(() => null)
  if (!handle) return null
  try {
    const { size } = await handle.stat()
    const head = Buffer.allocUnsafe(Math.min(size, BINARY_PROBE))
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    if (head.subarray(0, bytesRead).includes(0)) return null
    if (bytesRead < BINARY_PROBE) return head.subarray(0, bytesRead)
    // The file may have grown since stat: read on until end of file.
    let whole = Buffer.allocUnsafe(Math.max(size, bytesRead) + BINARY_PROBE)
    head.copy(whole, 0, 0, bytesRead)
    let offset = bytesRead
    for (;;) {
      if (offset === whole.length) whole = Buffer.concat([whole, Buffer.allocUnsafe(whole.length)])
      const { bytesRead: n } = await handle.read(whole, offset, whole.length - offset, offset)
      if (n === 0) return whole.subarray(0, offset)
      offset += n
    }
  } catch {
    return null
  } finally {
    await handle.close().catch(() => undefined)
  }
}

/** Reads files ahead of the search, in parallel, handed over in order; an unreadable or binary file is null. */
async function* readInOrder(files: ReadonlyArray<{ abs: string; display: string }>): AsyncGenerator<{ display: string; abs: string; bytes: Buffer | null }> {
  const reads: Array<Promise<Buffer | null>> = []
  for (let i = 0; i < files.length; i++) {
    for (let j = reads.length; j < Math.min(files.length, i + READ_AHEAD); j++) reads.push(readUnlessBinary(files[j].abs))
    const bytes = await reads[i]
    reads[i] = Promise.resolve(null) // let the buffer go
    yield { ...files[i], bytes }
  }
}

async function searchBuiltin(dirReal: string, options: SearchOptions, deps: SearchDeps): Promise<SearchResult> {
  const re = compileRegex(options.regex)
  // Whole-file pre-check: multiline so ^ and $ still mean line start and end.
  const anyLine = new RegExp(re.source, re.flags + 'm')
  const collector = new Collector(options)
  const literal = requiredLiteral(re)
  const st = statSync(dirReal)
  const files = st.isDirectory() ? await candidateFiles(dirReal, options, deps) : [{ abs: dirReal, display: displayOf(deps, dirReal) }]
  for await (const { display, bytes } of readInOrder(files)) {
    if (collector.done || options.signal?.aborted) break // the cap reached: no further file is read
    if (bytes) searchFile(bytes, display, re, anyLine, literal, options, collector)
  }
  return { engine: 'builtin', files: collector.files, matches: collector.matches, truncated: collector.truncated }
}

function searchFile(bytes: Buffer, display: string, re: RegExp, anyLine: RegExp, literal: Buffer | null, options: SearchOptions, collector: Collector): void {
  if (literal && !bytes.includes(literal)) return
  if (bytes.includes(0)) return // binary
  const text = bytes.toString('utf8')
  if (!anyLine.test(text)) return
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  const ctx = options.contextLines
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
