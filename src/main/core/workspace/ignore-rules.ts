import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import ignore, { type Ignore } from 'ignore'

/** Files whose patterns hide paths from every tool (gitignore syntax, at the workspace root). */
export const IGNORE_FILES = ['.modusignore', '.rooignore'] as const

/**
 * Directories skipped by listings, searches and the code index unless the listed path is inside
 * them: installed dependencies, version control and tool caches only. Generated folders (dist,
 * build, out, vendor…) are skipped only when a .gitignore names them: in many projects (a library
 * that ships dist/, a Go vendor/ folder) they hold the code, and hiding them made "no results" lie.
 */
export const DEFAULT_EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '.bzr',
  '.jj',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.venv',
  '.cache',
  '.turbo',
  '.gradle'
])

export interface IgnoreRules {
  /** Sources that contributed rules, e.g. ['.modusignore']. */
  sources: string[]
  ignores(relativePosixPath: string, isDirectory?: boolean): boolean
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return null
  }
}

/** Loads `.modusignore` and `.rooignore`; the ignore files themselves are never hidden. */
export async function loadIgnoreRules(root: string): Promise<IgnoreRules> {
  const matcher = ignore()
  const sources: string[] = []
  for (const name of IGNORE_FILES) {
    const text = await readIfExists(join(root, name))
    if (text === null) continue
    matcher.add(text)
    sources.push(name)
  }
  if (sources.length === 0) return { sources, ignores: () => false }
  return { sources, ignores: (rel, isDir) => testPath(matcher, rel, isDir) }
}

export function testPath(matcher: Ignore, rel: string, isDirectory = false): boolean {
  if (rel === '' || rel === '.' || rel.startsWith('../') || rel === '..') return false
  return matcher.ignores(isDirectory ? `${rel}/` : rel)
}
