import { createHash, randomUUID } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { copyFile, lstat, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { runGit, splitNul, type ShadowGitEnv } from './git-cli'

/**
 * A git directory and index of our own in the app data dir, used only to notice what a command
 * created, changed or deleted: `git add -A` re-hashes only files whose stat changed. The work tree
 * is the user's folder, read only; the user's `.git` is never written, never used as GIT_DIR, its
 * config and hooks never run. Its object store may be borrowed read-only (objects/info/alternates)
 * so unchanged tracked files are not stored twice.
 */
export interface ShadowRepoOptions {
  /** Our git directory (created on first use). */
  gitDir: string
  workspaceRoot: string
  /** Files above this size are not captured (listed instead). */
  maxFileBytes: () => number
  /** Extra gitignore-syntax patterns (Modus's ignore files). */
  extraExcludes: () => Promise<string>
  gitPath?: string
}

/** The state recorded before a command: the roots captured ('' = the workspace, others nested repositories). */
export interface Snapshot {
  roots: string[]
  skipped: SkippedFile[]
  /** A copy of each root's index as it was, so commands running at once do not see each other's snapshot. */
  indexes: Record<string, string>
  /** Size and mtime of each file too large to capture, so only the ones a command changes are listed after it. */
  large: Record<string, string>
}

export interface SkippedFile {
  path: string
  size: number
}

/** One file that differs from the snapshot; null where the file does not exist. */
export interface FileChange {
  path: string
  before: Buffer | null
  after: Buffer | null
  executable: boolean
}

export interface ShadowRepo {
  /** Brings the shadow index up to the work tree (`git add -A`, large files and nested repositories aside). */
  snapshot(): Promise<Snapshot>
  /** What was created, changed or deleted since `snapshot` (the index is left at the snapshot). */
  changesSince(snapshot: Snapshot): Promise<{ changes: FileChange[]; skipped: SkippedFile[] }>
  /** Deletes the git directory; the next snapshot starts over. */
  reset(): Promise<void>
}

const ATTRIBUTES =
  '# Byte-exact capture: no end-of-line conversion, filters or encodings from the project.\n* -text -ident !filter !working-tree-encoding !eol\n'
const PROCESS_STARTED_MS = Date.now() - process.uptime() * 1000

export function createShadowRepo(options: ShadowRepoOptions): ShadowRepo {
  const root = resolve(options.workspaceRoot)
  let initialized = false

  const indexOf = (prefix: string) =>
    join(options.gitDir, prefix ? `index-${createHash('sha1').update(prefix).digest('hex')}` : 'index')
  const envFor = (prefix: string, indexFile = indexOf(prefix)): ShadowGitEnv => ({
    gitDir: options.gitDir,
    workTree: prefix ? join(root, prefix) : root,
    indexFile,
    gitPath: options.gitPath
  })
  const git = (args: string[], input?: Buffer | string, prefix = '', indexFile?: string) =>
    runGit(envFor(prefix, indexFile), args, { input })

  async function ensureInitialized(): Promise<void> {
    if (initialized) return
    if (!existsSync(join(options.gitDir, 'HEAD'))) {
      await mkdir(options.gitDir, { recursive: true })
      await git(['init', '-q', '--template='])
    }
    await mkdir(join(options.gitDir, 'info'), { recursive: true })
    await writeFile(join(options.gitDir, 'info', 'attributes'), ATTRIBUTES)
    const userObjects = findUserObjectsDir(root)
    const alternates = join(options.gitDir, 'objects', 'info', 'alternates')
    await mkdir(dirname(alternates), { recursive: true })
    await writeFile(alternates, userObjects ? `${userObjects}\n` : '')
    await removeStaleLocks()
    initialized = true
  }

  /** A lock left by a process that was killed (a lock older than this process cannot be ours). */
  async function removeStaleLocks(): Promise<void> {
    for (const name of await readdir(options.gitDir).catch(() => [] as string[])) {
      if (!name.endsWith('.lock') && !name.endsWith('.snapshot')) continue
      const file = join(options.gitDir, name)
      const info = await stat(file).catch(() => null)
      if (info && info.mtimeMs < PROCESS_STARTED_MS) await rm(file, { force: true })
    }
  }

  async function writeExcludes(): Promise<void> {
    // A linked worktree's exclude file is the main repository's (git reads it from the common dir).
    const userGitDir = findUserGitDir(root)
    const userExclude = userGitDir
      ? await readFile(join(commonDirOf(userGitDir), 'info', 'exclude'), 'utf8').catch(() => '')
      : ''
    const text = `# the project's .git/info/exclude\n${userExclude}\n# Modus ignore files\n${await options.extraExcludes()}\n`
    await writeFile(join(options.gitDir, 'info', 'exclude'), text)
  }

  async function snapshotRoot(prefix: string, result: Snapshot): Promise<void> {
    result.roots.push(prefix)
    const listed = splitNul(await git(['ls-files', '-z', '-t', '-o', '-m', '--exclude-standard'], undefined, prefix))
    const nested: string[] = []
    const tooLarge: string[] = []
    const trackedTooLarge: string[] = []
    const base = rootOf(prefix)
    await Promise.all(
      listed.map(async (line) => {
        const tag = line[0]
        const path = line.slice(2)
        if (path.endsWith('/')) {
          nested.push(path.slice(0, -1))
          return
        }
        const info = await lstat(join(base, path)).catch(() => null)
        if (info?.isFile() && info.size > options.maxFileBytes()) {
          tooLarge.push(path)
          result.large[joinPrefix(prefix, path)] = stampOf(info)
          if (tag !== '?') trackedTooLarge.push(path)
          result.skipped.push({ path: joinPrefix(prefix, path), size: info.size })
        }
      })
    )
    const pathspecs = ['.', ...[...nested, ...tooLarge].map((path) => `:(exclude,literal)${path}`)].join('\0')
    await git(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], pathspecs, prefix)
    if (trackedTooLarge.length > 0) {
      await git(
        ['rm', '-q', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
        trackedTooLarge.map((p) => `:(literal)${p}`).join('\0'),
        prefix
      )
    }
    for (const repo of nested.sort()) await snapshotRoot(joinPrefix(prefix, repo), result)
  }

  const rootOf = (prefix: string) => (prefix ? join(root, prefix) : root)

  /** Tracked files changed or deleted, and untracked files created, in one root since its last `add`. */
  async function changesInRoot(
    prefix: string,
    knownRoots: ReadonlySet<string>,
    { indexes, large }: Snapshot,
    out: { changes: FileChange[]; skipped: SkippedFile[] }
  ): Promise<void> {
    const base = rootOf(prefix)
    const index = indexes[prefix]
    const changed = splitNul(
      await git(['diff-files', '-z', '--no-renames', '--raw', '--no-abbrev'], undefined, prefix, index)
    )
    const created = splitNul(await git(['ls-files', '-z', '-o', '--exclude-standard'], undefined, prefix, index))
    const beforeOids = new Map<string, { oid: string; mode: string }>()
    for (let i = 0; i + 1 < changed.length; i += 2) {
      const [srcMode, , srcOid] = changed[i].slice(1).split(' ')
      if (srcMode === '160000') continue
      beforeOids.set(changed[i + 1], { oid: srcOid, mode: srcMode })
    }
    const blobs = await readBlobs([...beforeOids.values()].map((entry) => entry.oid))
    const candidates: Array<{ path: string; before: { oid: string; mode: string } | null }> = [
      ...[...beforeOids].map(([path, before]) => ({ path, before })),
      ...created.map((path) => ({ path, before: null }))
    ]
    for (const { path, before } of candidates) {
      if (path.endsWith('/')) {
        // A repository created by the command: everything in it is new.
        const nestedPrefix = joinPrefix(prefix, path.slice(0, -1))
        if (!knownRoots.has(nestedPrefix)) await newFilesUnder(nestedPrefix, out)
        continue
      }
      const full = join(base, path)
      const found = await lstat(full).catch(() => null)
      if (found && !found.isFile() && !before) continue
      // A file the command replaced with a link or a folder is gone as a file: its content is what to restore.
      const info = found?.isFile() ? found : null
      if (info && info.size > options.maxFileBytes()) {
        // Listed only when the command created or changed it (untouched large files are in every listing).
        if (large[joinPrefix(prefix, path)] !== stampOf(info))
          out.skipped.push({ path: joinPrefix(prefix, path), size: info.size })
        continue
      }
      const after = info ? await readFile(full) : null
      const executable = info ? (info.mode & 0o111) !== 0 : before?.mode === '100755'
      if (before && after && gitBlobId(after) === before.oid && (before.mode === '100755') === executable) continue
      if (before?.mode === '120000') continue
      out.changes.push({
        path: joinPrefix(prefix, path),
        before: before ? blobs.get(before.oid)! : null,
        after,
        executable
      })
    }
  }

  async function newFilesUnder(prefix: string, out: { changes: FileChange[]; skipped: SkippedFile[] }): Promise<void> {
    const index = envFor(prefix).indexFile
    await rm(index, { force: true })
    for (const path of splitNul(await git(['ls-files', '-z', '-o', '--exclude-standard'], undefined, prefix))) {
      if (path.endsWith('/')) {
        await newFilesUnder(joinPrefix(prefix, path.slice(0, -1)), out)
        continue
      }
      const full = join(rootOf(prefix), path)
      const info = await lstat(full).catch(() => null)
      if (!info?.isFile()) continue
      if (info.size > options.maxFileBytes()) out.skipped.push({ path: joinPrefix(prefix, path), size: info.size })
      else
        out.changes.push({
          path: joinPrefix(prefix, path),
          before: null,
          after: await readFile(full),
          executable: (info.mode & 0o111) !== 0
        })
    }
  }

  async function readBlobs(oids: readonly string[]): Promise<Map<string, Buffer>> {
    const blobs = new Map<string, Buffer>()
    const unique = [...new Set(oids)]
    if (unique.length === 0) return blobs
    const output = await git(['cat-file', '--batch'], unique.join('\n') + '\n')
    let offset = 0
    while (offset < output.length) {
      const newline = output.indexOf(0x0a, offset)
      const [oid, type, size] = output.subarray(offset, newline).toString('utf8').split(' ')
      if (type === 'missing') throw new Error(`object ${oid} is missing from the shadow repository`)
      const length = Number(size)
      blobs.set(oid, output.subarray(newline + 1, newline + 1 + length))
      offset = newline + 1 + length + 1
    }
    return blobs
  }

  return {
    async snapshot() {
      await ensureInitialized()
      await writeExcludes()
      const result: Snapshot = { roots: [], skipped: [], indexes: {}, large: {} }
      await snapshotRoot('', result)
      const id = randomUUID()
      for (const prefix of result.roots) {
        result.indexes[prefix] = `${indexOf(prefix)}.${id}.snapshot`
        await copyFile(indexOf(prefix), result.indexes[prefix])
      }
      return result
    },

    async changesSince(snapshot) {
      await ensureInitialized()
      // Read again: files that became transient meanwhile (a warm sandbox's placeholders) are no change.
      await writeExcludes()
      const out = { changes: [] as FileChange[], skipped: [] as SkippedFile[] }
      const known = new Set(snapshot.roots)
      try {
        for (const prefix of snapshot.roots) await changesInRoot(prefix, known, snapshot, out)
      } finally {
        await Promise.all(Object.values(snapshot.indexes).map((file) => rm(file, { force: true })))
      }
      out.changes.sort((a, b) => a.path.localeCompare(b.path))
      return out
    },

    async reset() {
      initialized = false
      await rm(options.gitDir, { recursive: true, force: true })
    }
  }
}

/** The id git gives a file's content (sha1 of "blob <size>\0" + bytes). */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

const stampOf = (info: { size: number; mtimeMs: number }): string => `${info.size}:${info.mtimeMs}`

function joinPrefix(prefix: string, path: string): string {
  return prefix ? `${prefix}/${path}` : path
}

/** The user's git directory for the folder (walking up), read only; never used as GIT_DIR. */
export function findUserGitDir(start: string): string | null {
  let dir = resolve(start)
  for (;;) {
    const dotGit = join(dir, '.git')
    try {
      const info = statSync(dotGit)
      if (info.isDirectory()) return dotGit
      if (info.isFile()) {
        const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))
        if (match) return isAbsolute(match[1].trim()) ? match[1].trim() : resolve(dir, match[1].trim())
      }
    } catch {
      // no .git here
    }
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

/** The directory a linked worktree shares with its main repository (objects, info/exclude); the git dir itself otherwise. */
function commonDirOf(gitDir: string): string {
  try {
    const pointer = readFileSync(join(gitDir, 'commondir'), 'utf8').trim()
    return isAbsolute(pointer) ? pointer : resolve(gitDir, pointer)
  } catch {
    return gitDir
  }
}

/** The object store of the user's repository (a worktree's `commondir` followed). */
function findUserObjectsDir(root: string): string | null {
  const gitDir = findUserGitDir(root)
  if (!gitDir) return null
  const common = commonDirOf(gitDir)
  // Objects of another hash format cannot be borrowed.
  const config = (() => {
    try {
      return readFileSync(join(common, 'config'), 'utf8')
    } catch {
      return ''
    }
  })()
  if (/objectformat\s*=\s*sha256/i.test(config)) return null
  const objects = join(common, 'objects')
  return existsSync(objects) ? objects : null
}
