import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { lstat, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
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

/** Tree of each captured root: '' is the workspace, other keys are nested repositories. */
export interface Snapshot {
  trees: Record<string, string>
  skipped: SkippedFile[]
}

export interface SkippedFile {
  path: string
  size: number
}

/** One path that differs between two snapshots; an oid is null where the file does not exist. */
export interface TreeChange {
  path: string
  before: string | null
  after: string | null
  /** Git mode of the side that exists (after, else before): 100644, 100755, 120000. */
  mode: string
}

export interface ShadowRepo {
  snapshot(): Promise<Snapshot>
  diff(from: Snapshot, to: Snapshot): Promise<TreeChange[]>
  readBlobs(oids: readonly string[]): Promise<Map<string, Buffer>>
  /** Deletes the git directory; the next snapshot starts over. */
  reset(): Promise<void>
}

const ATTRIBUTES = '# Byte-exact capture: no end-of-line conversion, filters or encodings from the project.\n* -text -ident !filter !working-tree-encoding !eol\n'
const PROCESS_STARTED_MS = Date.now() - process.uptime() * 1000

export function createShadowRepo(options: ShadowRepoOptions): ShadowRepo {
  const root = resolve(options.workspaceRoot)
  let initialized = false

  const envFor = (prefix: string): ShadowGitEnv => ({
    gitDir: options.gitDir,
    workTree: prefix ? join(root, prefix) : root,
    indexFile: join(options.gitDir, prefix ? `index-${createHash('sha1').update(prefix).digest('hex')}` : 'index'),
    gitPath: options.gitPath
  })
  const git = (args: string[], input?: Buffer | string, prefix = '') => runGit(envFor(prefix), args, { input })

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
    for (const name of ['index.lock']) {
      const lock = join(options.gitDir, name)
      const info = await stat(lock).catch(() => null)
      if (info && info.mtimeMs < PROCESS_STARTED_MS) await rm(lock, { force: true })
    }
  }

  async function writeExcludes(): Promise<void> {
    const userGitDir = findUserGitDir(root)
    const userExclude = userGitDir ? await readFile(join(userGitDir, 'info', 'exclude'), 'utf8').catch(() => '') : ''
    const text = `# the project's .git/info/exclude\n${userExclude}\n# Modus ignore files\n${await options.extraExcludes()}\n`
    await writeFile(join(options.gitDir, 'info', 'exclude'), text)
  }

  async function snapshotRoot(prefix: string, result: Snapshot): Promise<void> {
    const candidates = splitNul(await git(['ls-files', '-z', '-o', '-m', '--exclude-standard'], undefined, prefix))
    const nested: string[] = []
    const tooLarge: string[] = []
    const limit = options.maxFileBytes()
    const base = prefix ? join(root, prefix) : root
    await Promise.all(
      candidates.map(async (path) => {
        if (path.endsWith('/')) {
          nested.push(path.slice(0, -1))
          return
        }
        const info = await lstat(join(base, path)).catch(() => null)
        if (info?.isFile() && info.size > limit) {
          tooLarge.push(path)
          result.skipped.push({ path: joinPrefix(prefix, path), size: info.size })
        }
      })
    )
    const excluded = [...nested, ...tooLarge]
    const pathspecs = ['.', ...excluded.map((path) => `:(exclude,literal)${path}`)].join('\0')
    await git(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], pathspecs, prefix)
    if (excluded.length > 0) {
      await git(['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], excluded.map((p) => `:(literal)${p}`).join('\0'), prefix)
    }
    result.trees[prefix] = (await git(['write-tree'], undefined, prefix)).toString('utf8').trim()
    for (const repo of nested.sort()) await snapshotRoot(joinPrefix(prefix, repo), result)
  }

  async function listTree(tree: string): Promise<Map<string, { oid: string; mode: string }>> {
    const entries = new Map<string, { oid: string; mode: string }>()
    for (const line of splitNul(await git(['ls-tree', '-r', '-z', '--full-tree', tree]))) {
      const tab = line.indexOf('\t')
      const [mode, type, oid] = line.slice(0, tab).split(' ')
      if (type === 'blob') entries.set(line.slice(tab + 1), { oid: oid!, mode: mode! })
    }
    return entries
  }

  async function diffRoot(prefix: string, from: string | undefined, to: string | undefined): Promise<TreeChange[]> {
    if (from === to) return []
    if (!from || !to) {
      const entries = await listTree((from ?? to)!)
      return [...entries].map(([path, { oid, mode }]) => ({
        path: joinPrefix(prefix, path),
        before: from ? oid : null,
        after: to ? oid : null,
        mode
      }))
    }
    const parts = splitNul(await git(['diff-tree', '-r', '-z', '--no-renames', '--no-abbrev', from, to]))
    const changes: TreeChange[] = []
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const [srcMode, dstMode, srcOid, dstOid] = parts[i]!.slice(1).split(' ')
      const path = parts[i + 1]!
      const before = /^0+$/.test(srcOid!) ? null : srcOid!
      const after = /^0+$/.test(dstOid!) ? null : dstOid!
      // Gitlinks never enter our trees (nested repositories are captured as files).
      if ((srcMode === '160000' || !before) && (dstMode === '160000' || !after)) continue
      changes.push({ path: joinPrefix(prefix, path), before, after, mode: after ? dstMode! : srcMode! })
    }
    return changes
  }

  return {
    async snapshot() {
      await ensureInitialized()
      await writeExcludes()
      const result: Snapshot = { trees: {}, skipped: [] }
      await snapshotRoot('', result)
      return result
    },

    async diff(from, to) {
      await ensureInitialized()
      const prefixes = [...new Set([...Object.keys(from.trees), ...Object.keys(to.trees)])].sort()
      const all = await Promise.all(prefixes.map((prefix) => diffRoot(prefix, from.trees[prefix], to.trees[prefix])))
      return all.flat()
    },

    async readBlobs(oids) {
      const blobs = new Map<string, Buffer>()
      const unique = [...new Set(oids)]
      if (unique.length === 0) return blobs
      await ensureInitialized()
      const output = await git(['cat-file', '--batch'], unique.join('\n') + '\n')
      let offset = 0
      while (offset < output.length) {
        const newline = output.indexOf(0x0a, offset)
        const [oid, type, size] = output.subarray(offset, newline).toString('utf8').split(' ')
        if (type === 'missing') throw new Error(`checkpoint object ${oid} is missing from the shadow repository`)
        const length = Number(size)
        blobs.set(oid!, output.subarray(newline + 1, newline + 1 + length))
        offset = newline + 1 + length + 1
      }
      return blobs
    },

    async reset() {
      initialized = false
      await rm(options.gitDir, { recursive: true, force: true })
    }
  }
}

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
        if (match) return isAbsolute(match[1]!.trim()) ? match[1]!.trim() : resolve(dir, match[1]!.trim())
      }
    } catch {
      // no .git here
    }
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

/** The object store of the user's repository (a worktree's `commondir` followed). */
function findUserObjectsDir(root: string): string | null {
  const gitDir = findUserGitDir(root)
  if (!gitDir) return null
  let common = gitDir
  try {
    const pointer = readFileSync(join(gitDir, 'commondir'), 'utf8').trim()
    common = isAbsolute(pointer) ? pointer : resolve(gitDir, pointer)
  } catch {
    // not a linked worktree
  }
  const objects = join(common, 'objects')
  return existsSync(objects) ? objects : null
}
