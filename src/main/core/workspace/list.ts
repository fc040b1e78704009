import { readFileSync, statSync, type Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
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

interface QueuedDir {
  dir: string
  rel: string
  scopes: ScopedIgnore[]
}

/**
 * Directories read at once. A listing is syscall-bound: many `readdir`s in flight on libuv's pool
 * walk a tree several times faster than one at a time (faster than `rg --files` on node_modules).
 */
const READ_AHEAD = 64

const readChildren = (dir: string): Promise<Dirent[] | null> =>
  readdir(dir, { withFileTypes: true }).catch(() => null)

/**
 * Breadth-first listing (so a truncated listing still shows the upper levels), sorted by path.
 * Symlinked directories are listed but not entered. Directories are read ahead in parallel but
 * taken in queue order, so the result (and where a limit cuts it) is that of a one-by-one walk.
 */
export async function listDirectory(dirReal: string, options: ListOptions, deps: WalkDeps): Promise<ListResult> {
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
  const queue: QueuedDir[] = [{ dir: dirReal, rel: startRel, scopes: startScopes }]
  const reads: Array<Promise<Dirent[] | null>> = []
  const readAhead = (upTo: number): void => {
    for (let i = reads.length; i < Math.min(queue.length, upTo); i++) reads.push(readChildren(queue[i].dir))
  }
  for (let head = 0; head < queue.length && !truncated; head++) {
    readAhead(head + READ_AHEAD)
    const children = await reads[head]
    if (!children) continue
    truncated = listChildren(queue[head], children, { options, deps, inside, applyDefaultExcludes, respectGitignore, entries, queue })
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { entries, truncated }
}

interface WalkState {
  options: ListOptions
  deps: WalkDeps
  inside: boolean
  applyDefaultExcludes: boolean
  respectGitignore: boolean
  entries: ListEntry[]
  queue: QueuedDir[]
}

/** Adds one directory's entries (sorted by name) and queues its subdirectories; true once the limit cut it. */
function listChildren({ dir, rel: dirRel, scopes: parentScopes }: QueuedDir, children: Dirent[], state: WalkState): boolean {
  const { options, deps, inside, entries, queue } = state
  const own = state.respectGitignore && children.some((c) => c.name === '.gitignore') ? readGitignore(dir) : null
  const scopes = own ? [...parentScopes, { base: dir, matcher: own }] : parentScopes
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const child of children) {
    // join() normalises every time; dir is already a clean real path (only a root ends in sep).
    const abs = dir.endsWith(sep) ? dir + child.name : dir + sep + child.name
    const isDir = isDirectoryEntry(child, abs)
    if (state.applyDefaultExcludes && isDir && DEFAULT_EXCLUDED_DIRS.has(child.name)) continue
    const rel = dirRel === '' ? child.name : `${dirRel}/${child.name}`
    if (inside && deps.ignored(rel, isDir)) continue
    if (scopes.length && gitIgnored(scopes, abs, isDir)) continue
    if (entries.length >= options.limit) return true
    entries.push({ path: rel, isDirectory: isDir, protected: inside && deps.isProtected(rel) })
    if (isDir && options.recursive && !child.isSymbolicLink()) queue.push({ dir: abs, rel, scopes })
  }
  return false
}
