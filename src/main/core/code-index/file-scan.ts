import { lstat, open, realpath, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { listDirectory } from '../workspace/list'
import { loadIgnoreRules } from '../workspace/ignore-rules'
import { isWithin } from '../workspace/paths'
import { skippedCollector, type SkippedFolder } from '../workspace/skipped-folders'

/** Files larger than this are not indexed (generated or data files). */
export const MAX_INDEXED_BYTES = 1024 * 1024
/** At most this many files per workspace (Roo's cap). */
export const MAX_INDEXED_FILES = 50_000

export interface ScanResult {
  /** Workspace-relative POSIX paths of candidate files. */
  files: string[]
  /** Directories walked (for the watcher), absolute; the root first. */
  directories: string[]
  truncated: boolean
  /** Folders not entered, and why (built-in exclusions, .gitignore, the ignore files). */
  skipped: SkippedFolder[]
}

/** Files the index may hold: the ignore files, .gitignore and the built-in exclusions (dependencies, VCS, caches) honoured. */
export async function scanWorkspace(
  root: string,
  dir = root,
  recursive = true,
  limit = MAX_INDEXED_FILES * 2
): Promise<ScanResult> {
  const rules = await loadIgnoreRules(root)
  const skipped = skippedCollector()
  const { entries, truncated } = await listDirectory(
    dir,
    { recursive, limit },
    {
      rootReal: root,
      ignored: (rel, isDir) => rules.ignores(rel, isDir),
      protectedIn: () => () => false,
      onSkipped: skipped.add
    }
  )
  const files = entries
    .filter((e) => !e.isDirectory)
    .map((e) => e.path)
    .slice(0, MAX_INDEXED_FILES)
  const directories = [dir, ...entries.filter((e) => e.isDirectory).map((e) => join(root, e.path))]
  return { files, directories, truncated: truncated || files.length >= MAX_INDEXED_FILES, skipped: skipped.list() }
}

/** Whether one changed file is still a candidate (its folder listed with the same rules). */
export async function isCandidate(root: string, rel: string): Promise<boolean> {
  const parent = dirname(join(root, rel))
  try {
    const { files } = await scanWorkspace(root, parent, false)
    return files.includes(rel)
  } catch {
    return false
  }
}

export type FileRead =
  | { kind: 'text'; text: string; size: number; mtimeMs: number }
  | { kind: 'skip'; reason: 'binary' | 'too_large' | 'missing' | 'outside' }

/**
 * Whether a listed file is a link whose target lies outside the workspace. The walk does not enter
 * linked folders, so only the file itself can be a link; reading it would bring outside content
 * into search results no policy decision covered.
 */
async function linksOutside(rootReal: string, absolute: string): Promise<boolean> {
  if (!(await lstat(absolute)).isSymbolicLink()) return false
  return !isWithin(rootReal, await realpath(absolute))
}

export type FileStat =
  { kind: 'file'; size: number; mtimeMs: number } | { kind: 'skip'; reason: 'too_large' | 'missing' | 'outside' }

/** Size and modification time of a file the index may hold, without reading it (links out of the workspace and huge files: skip). */
export async function statForIndex(rootReal: string, root: string, rel: string): Promise<FileStat> {
  const absolute = join(root, rel)
  let info
  try {
    if (await linksOutside(rootReal, absolute)) return { kind: 'skip', reason: 'outside' }
    info = await stat(absolute)
  } catch {
    return { kind: 'skip', reason: 'missing' }
  }
  if (!info.isFile()) return { kind: 'skip', reason: 'missing' }
  if (info.size > MAX_INDEXED_BYTES) return { kind: 'skip', reason: 'too_large' }
  return { kind: 'file', size: info.size, mtimeMs: info.mtimeMs }
}

/** Reads a file for indexing: links out of the workspace, huge files and binary files (a NUL byte in the first 8 kB) are skipped. */
export async function readForIndex(rootReal: string, root: string, rel: string): Promise<FileRead> {
  const absolute = join(root, rel)
  const info = await statForIndex(rootReal, root, rel)
  if (info.kind === 'skip') return info
  const handle = await open(absolute, 'r')
  try {
    const bytes = await handle.readFile()
    if (bytes.subarray(0, 8192).includes(0)) return { kind: 'skip', reason: 'binary' }
    return { kind: 'text', text: bytes.toString('utf8'), size: info.size, mtimeMs: info.mtimeMs }
  } finally {
    await handle.close()
  }
}
