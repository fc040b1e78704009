import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path'
import { hasControlCharacter } from '../../../shared/tools/path-param'
import { WorkspaceError, type ResolvedPath } from './types'

export const toPosix = (p: string): string => (sep === '\\' ? p.split(sep).join('/') : p)

/** True when `child` is `parent` or below it (both absolute, normalised). */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** Realpath of the deepest existing ancestor, with the missing tail appended (no link left in it). */
function canonicalOfNearest(absolute: string): string {
  const missing: string[] = []
  let current = absolute
  for (;;) {
    try {
      const real = realpathSync.native(current)
      return missing.length ? join(real, ...missing.reverse()) : real
    } catch {
      const parent = dirname(current)
      if (parent === current) return absolute
      missing.push(basename(current))
      current = parent
    }
  }
}

const MAX_LINKS = 40
const splitSegments = (path: string): string[] => path.split(sep === '\\' ? /[\\/]/ : '/')

/**
 * Walks `segments` from the real directory `base` as the OS does: every link met is followed
 * before the next segment, so `link/..` is the link target's parent, not the folder holding the
 * link. A dangling link leads to where its target would be. Missing segments cannot be links: the
 * rest is appended lexically. `followLast` false leaves a final link unfollowed (what `lstat`,
 * `rename` and `unlink` act on).
 */
function walk(base: string, segments: readonly string[], followLast: boolean, budget: { links: number }): string {
  let current = base
  const last = segments.reduce((at, segment, i) => (segment !== '' && segment !== '.' ? i : at), -1)
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      current = dirname(current)
      continue
    }
    const next = join(current, segment)
    let isLink: boolean
    try {
      isLink = lstatSync(next).isSymbolicLink()
    } catch {
      return resolve(next, ...segments.slice(i + 1).filter((s) => s !== ''))
    }
    if (!isLink || (i === last && !followLast) || budget.links-- <= 0) {
      current = next
      continue
    }
    const target = readlinkSync(next)
    current = isAbsolute(target)
      ? walk(parse(target).root, splitSegments(target.slice(parse(target).root.length)), true, budget)
      : walk(current, splitSegments(target), true, budget)
  }
  return current
}

/** `input` against the real directory `base`, resolved physically (see `walk`). */
export function physicalPath(base: string, input: string, followLast = true): string {
  const root = isAbsolute(input) ? parse(input).root : ''
  const start = root ? root : base
  const walked = walk(start, splitSegments(input.slice(root.length)), followLast, { links: MAX_LINKS })
  if (followLast) return canonicalOfNearest(walked)
  // The final name stays as it is; the folder holding it is real.
  return join(canonicalOfNearest(dirname(walked)), basename(walked))
}

/** Where a path really leads: links followed (dangling ones to their target), missing tail appended. */
export const realpathOfNearest = (absolute: string): string => physicalPath(parse(absolute).root, absolute)

function kindOf(path: string): ResolvedPath['kind'] {
  try {
    const st = statSync(path)
    return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other'
  } catch {
    return 'missing'
  }
}

export interface PathFlags {
  ignored(relativePosix: string, isDirectory: boolean): boolean
  protected(relativePosix: string): boolean
}

/**
 * Resolves a tool's path against the real root as the OS would (`..` after a link is physical).
 * Leaving the workspace (by `..`, an absolute path, a link or a dangling link) is flagged, not
 * refused: the policy decides. A control character in the path is refused outright.
 */
export function resolveWorkspacePath(rootReal: string, input: string, flags: PathFlags): ResolvedPath {
  if (hasControlCharacter(input))
    throw new WorkspaceError(
      'invalid_path',
      `Invalid path ${JSON.stringify(input)}: a path must not contain a NUL or another control character.`,
      input
    )
  const trimmed = input.trim() === '' ? '.' : input.trim()
  const absolute = physicalPath(rootReal, trimmed, false)
  const real = physicalPath(rootReal, trimmed)
  const lexical = resolve(rootReal, trimmed)
  const outsideWorkspace = !isWithin(rootReal, real)
  const viaSymlink = real !== absolute || absolute !== lexical
  const kind = kindOf(real)
  const realRel = outsideWorkspace ? null : toPosix(relative(rootReal, real))
  // The spelled and the unfollowed forms count too: an ignore or protect rule on either applies.
  const namedRels = [absolute, lexical].filter((p) => isWithin(rootReal, p)).map((p) => toPosix(relative(rootReal, p)))
  const isDir = kind === 'directory'
  const relPaths = [realRel, ...namedRels].filter((p): p is string => p !== null && p !== '')
  return {
    input,
    absolute,
    real,
    display: realRel !== null ? realRel || '.' : real,
    outsideWorkspace,
    viaSymlink,
    ignored: relPaths.some((p) => flags.ignored(p, isDir)),
    protected: relPaths.some((p) => flags.protected(p)),
    kind
  }
}
