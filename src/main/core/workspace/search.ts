import { spawn, spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { DEFAULT_EXCLUDED_DIRS } from './ignore-rules'
import { isWithin } from './paths'
import {
  Collector,
  compareWalkOrder,
  displayOf,
  InvalidRegexError,
  insideExcluded,
  pointsIntoGitignored,
  RG_MAX_BYTES
} from './search-common'
import { searchBuiltin } from './search-builtin'
import type { SkippedFolder } from './skipped-folders'

export { InvalidRegexError } from './search-common'
export { compileRegex } from './search-builtin'

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
  /** Folders under the searched one that were not searched, and why (a directory search only). */
  skipped?: SkippedFolder[]
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
      if (statSync(candidate).isFile() && spawnSync(candidate, ['--version'], { timeout: 5000 }).status === 0)
        return candidate
    } catch {
      // not here
    }
  }
  return null
}

export async function searchFiles(dirReal: string, options: SearchOptions, deps: SearchDeps): Promise<SearchResult> {
  const engine = options.engine ?? 'auto'
  if (engine === 'ripgrep' || (engine === 'auto' && deps.ripgrep)) {
    if (!deps.ripgrep) throw new Error('ripgrep (rg) is not on PATH')
    return searchWithRipgrep(deps.ripgrep, dirReal, options, deps)
  }
  return searchBuiltin(dirReal, options, deps)
}

// ---------------------------------------------------------------- ripgrep

/** `--null` ends each path with a NUL, so any file name parses; see RG_MAX_BYTES for the line previews. */
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
  return {
    path: line.toString('utf8', 0, nul),
    line: number,
    isMatch: kind === 0x3a,
    text: line.toString('utf8', i + 1)
  }
}

/**
 * Capped searches run with `--sort path` (one thread) so the first N results are the same ones the
 * built-in engine finds, and stop rg once the cap is reached. An uncapped search lets rg use every
 * thread (it prints each file's lines together) and sorts the files afterwards.
 */
function searchWithRipgrep(
  rg: string,
  dirReal: string,
  options: SearchOptions,
  deps: SearchDeps
): Promise<SearchResult> {
  const sorted = Number.isFinite(options.maxResults) && options.maxResults < Number.MAX_SAFE_INTEGER
  const collector = new Collector(options)
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ripgrepArgs(dirReal, options, deps, sorted), {
      cwd: deps.rootReal,
      stdio: ['ignore', 'pipe', 'pipe']
    })
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
