import { lstatSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { ResolvedPath } from './types'

export const toPosix = (p: string): string => (sep === '\\' ? p.split(sep).join('/') : p)

/** True when `child` is `parent` or below it (both absolute, normalised). */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** Realpath of the deepest existing ancestor, with the missing tail appended. */
export function realpathOfNearest(absolute: string): string {
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

function kindOf(path: string): ResolvedPath['kind'] {
  try {
    const st = statSync(path)
    return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other'
  } catch {
    return 'missing'
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

export interface PathFlags {
  ignored(relativePosix: string, isDirectory: boolean): boolean
  protected(relativePosix: string): boolean
}

/**
 * Resolves a tool's path against the real root. Leaving the workspace (by `..`, an absolute path or
 * a symlink) is flagged, not refused: the policy decides.
 */
export function resolveWorkspacePath(rootReal: string, input: string, flags: PathFlags): ResolvedPath {
  const trimmed = input.trim()
  const absolute = resolve(rootReal, trimmed === '' ? '.' : trimmed)
  const real = realpathOfNearest(absolute)
  const outsideWorkspace = !isWithin(rootReal, real)
  const lexicalInside = isWithin(rootReal, absolute)
  const viaSymlink = real !== absolute || isSymlink(absolute)
  const kind = kindOf(real)
  const realRel = outsideWorkspace ? null : toPosix(relative(rootReal, real))
  const lexicalRel = lexicalInside ? toPosix(relative(rootReal, absolute)) : null
  const isDir = kind === 'directory'
  const relPaths = [realRel, lexicalRel].filter((p): p is string => p !== null && p !== '')
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
