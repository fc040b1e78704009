import { readFileSync, readdirSync, statSync, type Dirent } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { DEFAULT_EXCLUDED_DIRS } from './ignore-rules'
import { isWithin, toPosix } from './paths'
import type { ListEntry, ListOptions, ListResult } from './types'

interface ScopedIgnore {
  /** Directory (absolute) the .gitignore lives in. */
  base: string
  matcher: Ignore
}

export interface WalkDeps {
  rootReal: string
  /** .modusignore / .rooignore test on workspace-relative POSIX paths. */
  ignored(relativePosix: string, isDirectory: boolean): boolean
  isProtected(relativePosix: string): boolean
}

function readGitignore(dir: string): Ignore | null {
  try {
    return ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8'))
  } catch {
    return null
  }
}

/** .gitignore files of the directories above `dir`, up to the workspace root (they apply below). */
function gitignoresAbove(rootReal: string, dir: string): ScopedIgnore[] {
  if (!isWithin(rootReal, dir) || dir === rootReal) return []
  const parts = toPosix(relative(rootReal, dir)).split('/').filter(Boolean)
  const ancestors = [rootReal]
  for (let i = 1; i < parts.length; i++) ancestors.push(join(rootReal, ...parts.slice(0, i)))
  const scoped: ScopedIgnore[] = []
  for (const base of ancestors) {
    const matcher = readGitignore(base)
    if (matcher) scoped.push({ base, matcher })
  }
  return scoped
}

function gitIgnored(scopes: readonly ScopedIgnore[], abs: string, isDir: boolean): boolean {
  for (const { base, matcher } of scopes) {
    // abs is always below base here: slice instead of path.relative (hot path).
    const rel = abs.length > base.length ? toPosix(abs.slice(base.length + 1)) : ''
    if (rel && matcher.ignores(isDir ? `${rel}/` : rel)) return true
  }
  return false
}

function isDirectoryEntry(entry: Dirent, abs: string): boolean {
  if (entry.isDirectory()) return true
  if (!entry.isSymbolicLink()) return false
  try {
    return statSync(abs).isDirectory()
  } catch {
    return false
  }
}

/**
 * Breadth-first listing (so a truncated listing still shows the upper levels), sorted by path.
 * Symlinked directories are listed but not entered.
 */
export function listDirectory(dirReal: string, options: ListOptions, deps: WalkDeps): ListResult {
  const respectGitignore = options.respectGitignore ?? true
  const inside = isWithin(deps.rootReal, dirReal)
  const entries: ListEntry[] = []
  let truncated = false
  // A listing that points into an excluded or gitignored directory shows what is there.
  const segments = inside ? toPosix(relative(deps.rootReal, dirReal)).split('/') : []
  const applyDefaultExcludes = !segments.some((s) => DEFAULT_EXCLUDED_DIRS.has(s))
  const above = respectGitignore ? gitignoresAbove(deps.rootReal, dirReal) : []
  const startScopes = gitIgnored(above, dirReal, true) ? [] : above
  const startRel = inside ? toPosix(relative(deps.rootReal, dirReal)) : toPosix(dirReal)
  const queue: Array<{ dir: string; rel: string; scopes: ScopedIgnore[] }> = [{ dir: dirReal, rel: startRel, scopes: startScopes }]
  for (let head = 0; head < queue.length; head++) {
    const { dir, rel: dirRel, scopes: parentScopes } = queue[head]
    let children: Dirent[]
    try {
      children = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    const own = respectGitignore && children.some((c) => c.name === '.gitignore') ? readGitignore(dir) : null
    const scopes = own ? [...parentScopes, { base: dir, matcher: own }] : parentScopes
    if (truncated) break
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const child of children) {
      // join() normalises every time; dir is already a clean real path (only a root ends in sep).
      const abs = dir.endsWith(sep) ? dir + child.name : dir + sep + child.name
      const isDir = isDirectoryEntry(child, abs)
      if (applyDefaultExcludes && isDir && DEFAULT_EXCLUDED_DIRS.has(child.name)) continue
      const rel = dirRel === '' ? child.name : `${dirRel}/${child.name}`
      if (inside && deps.ignored(rel, isDir)) continue
      if (scopes.length && gitIgnored(scopes, abs, isDir)) continue
      if (entries.length >= options.limit) {
        truncated = true
        break
      }
      entries.push({ path: rel, isDirectory: isDir, protected: inside && deps.isProtected(rel) })
      if (isDir && options.recursive && !child.isSymbolicLink()) queue.push({ dir: abs, rel, scopes })
    }
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { entries, truncated }
}
