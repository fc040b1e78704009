import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { nulList, repoGit } from './repo-git'

/** One file the task changed: its text at the base commit, in the task's worktree, and in the main tree now. */
export interface BranchFile {
  path: string
  /** null: the file did not exist at the base commit. */
  base: string | null
  /** null: the task deleted it. */
  branch: string | null
  /** null: absent from the main working tree. */
  main: string | null
  /** A binary file is listed but never merged hunk by hunk. */
  binary: boolean
}

export interface WorktreeLocation {
  /** The main workspace root (the user's working tree). */
  mainRoot: string
  /** The task's worktree. */
  worktree: string
  /** The commit the task's branch started from. */
  baseCommit: string
  /** Paths in the worktree that are not the task's (a running sandbox's placeholders): never listed. */
  leftOut?: readonly string[]
}

/**
 * What the task changed against its base commit, read with real git (read-only: no index refresh): committed on its branch and
 * still uncommitted in its worktree (`git diff <base>` compares the base with the worktree's files),
 * plus files it created and did not add (untracked, not ignored).
 */
export async function readBranchFiles(location: WorktreeLocation): Promise<BranchFile[]> {
  const { worktree, baseCommit } = location
  const tracked = nulList(
    await repoGit(worktree, ['diff', '--no-ext-diff', '--no-textconv', '--no-renames', '--name-only', '-z', baseCommit])
  )
  const untracked = nulList(await repoGit(worktree, ['ls-files', '--others', '--exclude-standard', '-z']))
  const skip = new Set(location.leftOut)
  const paths = [...new Set([...tracked, ...untracked])].filter((path) => !skip.has(path)).sort()
  return Promise.all(paths.map((path) => readOne(location, path)))
}

async function readOne(location: WorktreeLocation, path: string): Promise<BranchFile> {
  const [base, branch, main] = await Promise.all([
    readBaseBlob(location.worktree, location.baseCommit, path),
    readIfFile(join(location.worktree, path)),
    readIfFile(join(location.mainRoot, path))
  ])
  const binary = [base, branch, main].some((bytes) => bytes !== null && bytes.includes(0))
  const text = (bytes: Buffer | null): string | null => (bytes === null ? null : bytes.toString('utf8'))
  return { path, base: text(base), branch: text(branch), main: text(main), binary }
}

async function readBaseBlob(worktree: string, commit: string, path: string): Promise<Buffer | null> {
  const listed = await repoGit(worktree, ['ls-tree', '-z', '--name-only', commit, '--', path])
  if (nulList(listed).length === 0) return null
  return repoGit(worktree, ['cat-file', 'blob', `${commit}:${path}`])
}

/** A regular file's bytes; null when absent. A symbolic link reads as a NUL byte: never merged as text. */
async function readIfFile(path: string): Promise<Buffer | null> {
  try {
    if ((await fs.lstat(path)).isSymbolicLink()) return Buffer.from([0])
    return await fs.readFile(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null
    throw error
  }
}
