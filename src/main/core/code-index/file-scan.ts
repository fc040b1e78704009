import { lstat as lstatCallback, readFile as readFileCallback, type Stats } from 'node:fs'
import { lstat, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { listDirectory, wouldList } from '../workspace/list'
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

/** Which of these files a full scan would list (checked along each path; the watcher's files). */
export async function candidatesAmong(root: string, paths: readonly string[]): Promise<Set<string>> {
  const rules = await loadIgnoreRules(root)
  const deps = { rootReal: root, ignored: (rel: string, isDir: boolean) => rules.ignores(rel, isDir) }
  const listed = (rel: string) => {
    try {
      return wouldList(rel, deps)
    } catch {
      return false // a folder on the way cannot be read (or is a file now)
    }
  }
  return new Set(paths.filter(listed))
}

export type FileRead =
  | { kind: 'text'; text: string; size: number; mtimeMs: number; ino: number }
  | { kind: 'skip'; reason: 'binary' | 'too_large' | 'missing' | 'outside' }

export type FileStat =
  | { kind: 'file'; size: number; mtimeMs: number; ino: number }
  | { kind: 'skip'; reason: 'too_large' | 'missing' | 'outside' }

/**
 * Size, modification time and inode of a file the index may hold, without reading it (links out of
 * the workspace and huge files: skip). One lstat for a plain file; a link is followed only if its
 * target lies inside the workspace (the walk does not enter linked folders, so only the file itself
 * can be a link, and reading one that points out would bring outside content into search results).
 */
export async function statForIndex(rootReal: string, root: string, rel: string): Promise<FileStat> {
  const absolute = join(root, rel)
  let info
  try {
    info = await lstat(absolute)
    if (info.isSymbolicLink()) {
      if (!isWithin(rootReal, await realpath(absolute))) return { kind: 'skip', reason: 'outside' }
      info = await stat(absolute)
    }
  } catch {
    return { kind: 'skip', reason: 'missing' }
  }
  return plainFileStat(info)
}

/**
 * Stats in flight at once: a stat is a syscall on libuv's pool, so one at a time leaves the pool
 * idle while each answer waits for the event loop (17.5k files took 26 s one by one at load 25).
 */
const STATS_IN_FLIGHT = 32

/** One lstat by callback: a promise per file cost more than the stat itself here. */
const lstatOrNull = (absolute: string): Promise<Stats | null> =>
  new Promise((resolve) => lstatCallback(absolute, (error, info) => resolve(error ? null : info)))

/** What a plain file's lstat says; a link goes through `statForIndex` (its target is checked). */
function plainFileStat(info: Stats): FileStat {
  if (!info.isFile()) return { kind: 'skip', reason: 'missing' }
  if (info.size > MAX_INDEXED_BYTES) return { kind: 'skip', reason: 'too_large' }
  return { kind: 'file', size: info.size, mtimeMs: info.mtimeMs, ino: info.ino }
}

/** `statForIndex` of every path, in the same order, a bounded number at a time. */
export async function statAll(rootReal: string, root: string, paths: readonly string[]): Promise<FileStat[]> {
  const stats = new Array<FileStat>(paths.length)
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const at = next++
      const info = await lstatOrNull(join(root, paths[at]))
      stats[at] = !info
        ? { kind: 'skip', reason: 'missing' }
        : info.isSymbolicLink()
          ? await statForIndex(rootReal, root, paths[at])
          : plainFileStat(info)
    }
  }
  await Promise.all(Array.from({ length: Math.min(STATS_IN_FLIGHT, paths.length) }, worker))
  return stats
}

/** Reads a file for indexing: links out of the workspace, huge files and binary files (a NUL byte in the first 8 kB) are skipped. */
export async function readForIndex(
  rootReal: string,
  root: string,
  rel: string,
  /** The file's `statForIndex`, when the caller has just taken it. */
  known?: FileStat
): Promise<FileRead> {
  const info = known ?? (await statForIndex(rootReal, root, rel))
  if (info.kind === 'skip') return info
  const bytes = await readBytes(join(root, rel))
  if (bytes.subarray(0, 8192).includes(0)) return { kind: 'skip', reason: 'binary' }
  return { kind: 'text', text: bytes.toString('utf8'), size: info.size, mtimeMs: info.mtimeMs, ino: info.ino }
}

/** A whole file by callback: a FileHandle's open, read and close cost this thread about twice as much. */
const readBytes = (absolute: string): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    readFileCallback(absolute, (error, bytes) => (error ? reject(error) : resolve(bytes)))
  )
