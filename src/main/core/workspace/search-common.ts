import { readFileSync, type Dirent } from 'node:fs'
import { join, relative } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { DEFAULT_EXCLUDED_DIRS } from './ignore-rules'
import { isWithin, toPosix } from './paths'
import type { SearchDeps, SearchFileResult, SearchOptions } from './search'

/** What both search engines share: the result collector, display paths and gitignore scopes. */

/** Characters kept of a result line. */
export const MAX_KEPT_LINE = 2000

export class InvalidRegexError extends Error {
  override name = 'InvalidRegexError'
}

/** Collects results in order, stopping one match after the cap so "N of M+" is honest. */
export class Collector {
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
    this.current.lines.push({
      line,
      text: clean.length > MAX_KEPT_LINE ? clean.slice(0, MAX_KEPT_LINE) : clean,
      isMatch
    })
  }

  end(): void {
    if (this.current && this.current.lines.some((l) => l.isMatch)) this.files.push(this.current)
    this.current = null
  }
}

/**
 * rg's plain output, not `--json`: JSON mode ignores `--max-columns`, so one minified match line
 * arrived as megabytes of JSON to parse, only for the first 2,000 characters to be kept. Lines over
 * RG_MAX_BYTES bytes come back as a preview of RG_MAX_BYTES characters (at least MAX_KEPT_LINE
 * characters either way) plus a marker the Collector's cut removes.
 */
export const RG_MAX_BYTES = 4 * MAX_KEPT_LINE

export const displayOf = (deps: SearchDeps, abs: string): string =>
  isWithin(deps.rootReal, abs) ? toPosix(relative(deps.rootReal, abs)) : toPosix(abs)

export const insideExcluded = (deps: SearchDeps, dir: string): boolean =>
  isWithin(deps.rootReal, dir) &&
  toPosix(relative(deps.rootReal, dir))
    .split('/')
    .some((s) => DEFAULT_EXCLUDED_DIRS.has(s))

/** The order of a walk that visits each directory's entries by name (rg `--sort path`, the built-in engine). */
export function compareWalkOrder(a: string, b: string): number {
  const as = a.split('/')
  const bs = b.split('/')
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] !== bs[i]) return as[i] < bs[i] ? -1 : 1
  }
  return as.length - bs.length
}

export interface Scope {
  base: string
  matcher: Ignore
}

export function gitignoreAt(dir: string, names: readonly Dirent[]): Ignore | null {
  if (!names.some((d) => d.name === '.gitignore')) return null
  try {
    return ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8'))
  } catch {
    return null
  }
}

export function ancestorScopes(deps: SearchDeps, dir: string): Scope[] {
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
export function pointsIntoGitignored(deps: SearchDeps, dir: string): boolean {
  return gitIgnored(ancestorScopes(deps, dir), dir, true)
}

export const gitIgnored = (scopes: readonly Scope[], abs: string, isDir: boolean): boolean =>
  scopes.some(({ base, matcher }) => {
    // abs is below base or equal to it: slice instead of path.relative (once per entry and scope).
    const rel =
      abs.length > base.length && abs.startsWith(base)
        ? toPosix(abs.slice(base.length + 1))
        : toPosix(relative(base, abs))
    return rel !== '' && matcher.ignores(isDir ? `${rel}/` : rel)
  })
