import { createHash } from 'node:crypto'
import { promises as fs, readFileSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { emptiedFilterDrivers, gitText, nulList, repoGit, RepoGitError } from './repo-git'

/** The repository an open folder belongs to and where that folder sits in it. */
export interface RepoOf {
  /** Real path of the repository's top level. */
  root: string
  /** The open folder relative to it ('' at the top). */
  subdir: string
  /** HEAD's commit. */
  head: string
}

export async function repoOf(folder: string): Promise<RepoOf> {
  let top: string
  try {
    top = await fs.realpath(await gitText(folder, ['rev-parse', '--show-toplevel']))
  } catch {
    throw new WorktreeError('not_a_repository', `${folder} is not in a git repository: isolated tasks need git.`)
  }
  const head = await gitText(top, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => '')
  if (!head)
    throw new WorktreeError(
      'no_commit',
      'The repository has no commit yet: commit once before starting an isolated task.'
    )
  const subdir = relative(top, await fs.realpath(folder))
  return { root: top, subdir: subdir.split(sep).join('/'), head }
}

export class WorktreeError extends Error {
  override name = 'WorktreeError'
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

/** `<name>-<hash>`: readable, and two repositories with one name never share a folder. */
export const repoIdOf = (root: string): string =>
  `${slugify(basename(root)).slice(0, 30) || 'repo'}-${createHash('sha256').update(root).digest('hex').slice(0, 10)}`

export const slugify = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '')

export interface AddWorktree {
  repo: RepoOf
  path: string
  branch: string
  /** Empty the repository's filter drivers (untrusted: its config is its code). */
  untrusted: boolean
}

/**
 * `git worktree add -b <branch> <path> <head>`: adds the branch and the worktree's admin folder
 * (`.git/worktrees/<name>`); the user's index, HEAD and other refs are not written.
 */
export async function addWorktree(add: AddWorktree): Promise<void> {
  const config = add.untrusted ? await emptiedFilterDrivers(add.repo.root) : []
  await fs.mkdir(dirname(add.path), { recursive: true })
  await repoGit(add.repo.root, ['worktree', 'add', '--quiet', '-b', add.branch, add.path, add.repo.head], { config })
}

export async function branchExists(root: string, branch: string): Promise<boolean> {
  return repoGit(root, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]).then(
    () => true,
    () => false
  )
}

/**
 * Copies the main tree's uncommitted work into the worktree, reading the main tree only: the diff
 * of tracked files against HEAD (applied to the worktree's files, not its index) and the new files
 * git does not ignore. Returns how many paths it carried.
 */
export async function carryChanges(repo: RepoOf, worktree: string): Promise<number> {
  const diff = await repoGit(repo.root, ['diff', '--binary', '--no-ext-diff', '--no-textconv', 'HEAD', '--'])
  if (diff.length > 0) await repoGit(worktree, ['apply', '--binary', '--whitespace=nowarn'], { input: diff })
  const untracked = nulList(await repoGit(repo.root, ['ls-files', '--others', '--exclude-standard', '-z']))
  for (const path of untracked) await copyInside(repo.root, worktree, path)
  const changed = nulList(await repoGit(repo.root, ['diff', '--name-only', '-z', '--no-ext-diff', 'HEAD', '--']))
  return changed.length + untracked.length
}

/**
 * Copies the listed ignored files (relative paths) from the main tree; a path that leaves the
 * repository, or does not exist, is skipped. Returns the ones copied.
 */
export async function copyListed(repoRoot: string, worktree: string, paths: readonly string[]): Promise<string[]> {
  const copied: string[] = []
  for (const path of paths) {
    if (await copyInside(repoRoot, worktree, path)) copied.push(path)
  }
  return copied
}

async function copyInside(fromRoot: string, toRoot: string, path: string): Promise<boolean> {
  const from = resolve(fromRoot, path)
  const rel = relative(fromRoot, from)
  if (!rel || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep)[0] === '.git') return false
  const stat = await fs.lstat(from).catch(() => null)
  if (!stat) return false
  const to = join(toRoot, rel)
  await fs.mkdir(dirname(to), { recursive: true })
  await fs.cp(from, to, { recursive: true, verbatimSymlinks: true, force: true, errorOnExist: false })
  return true
}

/**
 * Files that differ from `base`: committed on the branch, changed in the worktree, or new (not
 * ignored). `leftOut`: paths (relative to the worktree) that are not the task's, such as the empty
 * placeholders a running sandbox keeps over absent protected paths.
 */
export async function changedFileCount(
  worktree: string,
  base: string,
  leftOut: readonly string[] = []
): Promise<number> {
  const [changed, untracked] = await Promise.all([
    repoGit(worktree, ['diff', '--name-only', '-z', '--no-ext-diff', base, '--']),
    repoGit(worktree, ['ls-files', '--others', '--exclude-standard', '-z'])
  ])
  const skip = new Set(leftOut)
  return new Set([...nulList(changed), ...nulList(untracked)].filter((path) => !skip.has(path))).size
}

/**
 * Commits everything in the worktree on its own branch (before its folder is pruned, or a Merge), so
 * no work is lost; `leftOut` (relative paths that are not the task's) stays out of the commit.
 */
export async function snapshotOnBranch(
  worktree: string,
  message: string,
  leftOut: readonly string[] = []
): Promise<boolean> {
  await repoGit(worktree, ['add', '-A'])
  if (leftOut.length > 0) await repoGit(worktree, ['reset', '-q', '--', ...leftOut.map((path) => `:(literal)${path}`)])
  const staged = await repoGit(worktree, ['diff', '--cached', '--quiet']).then(
    () => false,
    (error: unknown) => error instanceof RepoGitError && error.exitCode === 1
  )
  if (staged) await repoGit(worktree, ['commit', '--quiet', '--no-verify', '-m', message])
  return staged
}

/** Removes the worktree (its folder and git's admin entry); the branch is deleted only when asked. */
export async function removeWorktree(
  repoRoot: string | null,
  path: string,
  branch: string | null,
  deleteBranch: boolean
): Promise<{ removed: boolean; branchDeleted: boolean }> {
  if (repoRoot) await repoGit(repoRoot, ['worktree', 'remove', '--force', '--force', path]).catch(() => undefined)
  await fs.rm(path, { recursive: true, force: true })
  if (repoRoot) await repoGit(repoRoot, ['worktree', 'prune']).catch(() => undefined)
  let branchDeleted = false
  if (repoRoot && branch && deleteBranch && branch.startsWith('modus/')) {
    branchDeleted = await repoGit(repoRoot, ['branch', '-D', '--quiet', branch]).then(
      () => true,
      () => false
    )
  }
  const gone = await fs.stat(path).then(
    () => false,
    () => true
  )
  return { removed: gone, branchDeleted }
}

/** What git says about a folder found under the worktrees dir: its branch and its repository. */
export async function describeWorktree(path: string): Promise<{ branch: string | null; repoRoot: string | null }> {
  const branch = await gitText(path, ['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => null)
  const common = await gitText(path, ['rev-parse', '--path-format=absolute', '--git-common-dir']).catch(() => null)
  // A folder outside any worktree answers with an enclosing repository (or none): only a real worktree counts.
  const top = await gitText(path, ['rev-parse', '--show-toplevel']).catch(() => null)
  if (!common || !top || resolve(top) !== resolve(path)) return { branch: null, repoRoot: null }
  return { branch: branch || null, repoRoot: dirname(common) }
}

const OFFERED = [
  /^\.env(\..+)?$/,
  /^\.envrc$/,
  /\.local$/,
  /^\.npmrc$/,
  /^\.secrets?(\..+)?$/,
  /^local\.settings\.json$/
]

/**
 * Ignored files of the main tree a project usually needs to run (`.env*` and similar): offered to
 * the user for the copy list, never copied unless they list them.
 */
export async function offeredFiles(repoRoot: string): Promise<string[]> {
  const ignored = await repoGit(repoRoot, [
    'ls-files',
    '--others',
    '--ignored',
    '--exclude-standard',
    '--directory',
    '-z'
  ])
    .then(nulList)
    .catch(() => [])
  return ignored
    .filter((path) => !path.endsWith('/'))
    .filter((path) => OFFERED.some((pattern) => pattern.test(basename(path))))
    .sort()
}

/** Bytes a folder tree takes (files' sizes; symlinks not followed). */
export async function folderBytes(path: string): Promise<number> {
  let total = 0
  const stack = [path]
  while (stack.length > 0) {
    const dir = stack.pop()!
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) stack.push(full)
      else if (entry.isFile()) total += (await fs.lstat(full).catch(() => null))?.size ?? 0
    }
  }
  return total
}

/**
 * A worktree's git data outside it: its admin folder (the `gitdir:` of its `.git` file) and the
 * common dir that folder names (objects, refs, config, hooks). Parts that cannot be read are left
 * out; the caller keeps the repository itself read-only anyway.
 */
export function gitDataDirs(worktree: string): string[] {
  try {
    const admin = /^gitdir:\s*(.+)$/m.exec(readFileSync(join(worktree, '.git'), 'utf8'))?.[1]?.trim()
    if (!admin) return []
    const adminDir = resolve(worktree, admin)
    const common = readFileSync(join(adminDir, 'commondir'), 'utf8').trim()
    return [adminDir, resolve(adminDir, common)]
  } catch {
    return []
  }
}
