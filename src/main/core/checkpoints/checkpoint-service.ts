import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { IGNORE_FILES } from '../workspace/ignore-rules'
import { createWorkspaceCheckpoints, type CheckpointLimits, type WorkspaceCheckpoints } from './workspace-checkpoints'

export const DEFAULT_CHECKPOINT_LIMITS: CheckpointLimits = {
  maxFileBytes: 5 * 1024 * 1024,
  maxWorkspaceBytes: 2 * 1024 * 1024 * 1024
}

export interface CheckpointServiceOptions {
  /** `<app data dir>/checkpoints`. */
  dir: string
  limits?: () => CheckpointLimits
  gitPath?: string
  now?: () => number
  onFailure?: (taskId: string, message: string) => void
  /** Files that are not the user's and are never captured (a running sandbox's mount points), absolute. */
  transientPaths?: () => readonly string[]
}

/** The checkpoints of every workspace, each in its own directory under the app data dir. */
export interface CheckpointService {
  forWorkspace(root: string): WorkspaceCheckpoints
  /** Every workspace with checkpoints and the space they use. */
  usage(): Promise<{ workspace: string; bytes: number }[]>
  /** Drops a deleted task's checkpoints wherever it has some. */
  pruneTask(taskId: string): Promise<void>
}

/** Directory name of a workspace: readable, and unique through a hash of the real path. */
export function workspaceKey(root: string): string {
  const name =
    basename(root)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root'
  return `${name}-${createHash('sha256').update(root).digest('hex').slice(0, 16)}`
}

export function createCheckpointService(options: CheckpointServiceOptions): CheckpointService {
  const limits = options.limits ?? (() => DEFAULT_CHECKPOINT_LIMITS)
  const byRoot = new Map<string, WorkspaceCheckpoints>()

  const open = (root: string): WorkspaceCheckpoints => {
    let real = root
    try {
      real = realpathSync.native(root)
    } catch {
      // a folder that vanished: its history stays under the name it had
    }
    let checkpoints = byRoot.get(real)
    if (!checkpoints) {
      const dir = join(options.dir, workspaceKey(real))
      checkpoints = createWorkspaceCheckpoints({
        dir,
        root: real,
        limits,
        ignorePatterns: async () =>
          [await ignorePatterns(real), ...transientPatterns(real, options.transientPaths?.() ?? [])].join('\n'),
        gitPath: options.gitPath,
        now: options.now,
        onFailure: options.onFailure
      })
      byRoot.set(real, checkpoints)
      void writeRootFile(dir, real)
    }
    return checkpoints
  }

  async function knownWorkspaces(): Promise<string[]> {
    const roots = new Set(byRoot.keys())
    for (const name of await readdir(options.dir).catch(() => [] as string[])) {
      const root = await readFile(join(options.dir, name, 'root.txt'), 'utf8').catch(() => null)
      if (root) roots.add(root.trim())
    }
    return [...roots]
  }

  return {
    forWorkspace: open,
    async usage() {
      const result = []
      for (const root of await knownWorkspaces())
        result.push({ workspace: root, bytes: (await open(root).usage()).bytes })
      return result
    },
    async pruneTask(taskId) {
      for (const root of await knownWorkspaces()) await open(root).pruneTask(taskId)
    }
  }
}

async function ignorePatterns(root: string): Promise<string> {
  const texts = await Promise.all(IGNORE_FILES.map((name) => readFile(join(root, name), 'utf8').catch(() => '')))
  return texts.join('\n')
}

/** Exclude lines for the transient files inside `root`, anchored to it, glob characters escaped. */
function transientPatterns(root: string, paths: readonly string[]): string[] {
  return paths
    .filter((path) => path.startsWith(`${root}/`))
    .map((path) => `/${path.slice(root.length + 1).replace(/[*?[\\!#]/g, (char) => `\\${char}`)}`)
}

async function writeRootFile(dir: string, root: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'root.txt'), root)
}
