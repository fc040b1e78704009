import { randomUUID } from 'node:crypto'
import { lstat, readdir, readFile, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import { createBlobStore, hashBytes, type BlobStore } from './blob-store'
import { GitMissingError } from './git-cli'
import { createJournal, type Journal, type JournalEntry } from './journal'
import { createShadowRepo, type ShadowRepo, type SkippedFile, type Snapshot } from './shadow-repo'

export interface CheckpointLimits {
  /** Files above this are not captured by command snapshots (listed instead). */
  maxFileBytes: number
  /** Per-workspace cap on the space checkpoints use; the oldest tasks' history goes first. */
  maxWorkspaceBytes: number
}

export interface WorkspaceCheckpointsOptions {
  /** This workspace's directory in the app data dir. */
  dir: string
  root: string
  limits: () => CheckpointLimits
  ignorePatterns: () => Promise<string>
  gitPath?: string
  now?: () => number
  /** A snapshot or record that failed (the UI says so; it is never silently missing). */
  onFailure?: (taskId: string, message: string) => void
}

export interface CheckpointMarker {
  id: string
  taskId: string
  at: number
  label: string
  /** Files Modus changed after this marker (in this task). */
  changedFiles: number
  /** Files too large to capture, until the task's next marker. */
  skipped: SkippedFile[]
  /** Snapshots that failed until the next marker. */
  failures: string[]
}

export interface CommandCapture {
  changed: string[]
  skipped: SkippedFile[]
  /** Why command changes were not captured, when they were not. */
  failure?: string
}

/** One file of a restore or of "changes of this task": bytes null = the file does not exist. */
export interface FileVersionPair {
  path: string
  /** What is on disk now. */
  current: Buffer | null
  /** What the restore would write (the checkpoint's content) or, for task changes, the task-start content. */
  target: Buffer | null
  executable: boolean
  /** Set when someone else changed the file after Modus last wrote it. */
  conflict?: string
}

/** Which command a snapshot pair was taken around. */
export interface CommandSource {
  command: string
  callId?: string
}

export interface CommandFileChange {
  path: string
  at: number
  command?: string
  callId?: string
  /** Groups the files of one command run. */
  action: string
  before: Buffer | null
  after: Buffer | null
}

export interface WorkspaceCheckpoints {
  readonly root: string
  mark(taskId: string, label: string): Promise<CheckpointMarker>
  /** Runs a write of one file, recording its content before and after. */
  recordWrite<T>(taskId: string, absolutePath: string, write: () => Promise<T>): Promise<T>
  /** Snapshots before and after `run`; what the command created, changed or deleted is recorded. */
  aroundCommand<T>(
    taskId: string,
    run: () => Promise<T>,
    source?: CommandSource
  ): Promise<{ result: T; capture: CommandCapture }>
  /** Each file a command of the task changed, per command run, with its content before and after. */
  commandChanges(taskId: string): Promise<CommandFileChange[]>
  markers(taskId: string): Promise<CheckpointMarker[]>
  /** Files to write to bring the task's changes after `markerId` back. */
  planRestore(taskId: string, markerId: string): Promise<FileVersionPair[]>
  /** One diff from the task's start to now, per file Modus changed in the task. */
  taskChanges(taskId: string): Promise<FileVersionPair[]>
  failures(taskId: string): Promise<string[]>
  pruneTask(taskId: string): Promise<void>
  /** Drops the oldest tasks' history until under the cap (never the task named in `keep`). */
  enforceCap(keep?: string): Promise<void>
  usage(): Promise<{ bytes: number; blobBytes: number; gitBytes: number }>
}

export function createWorkspaceCheckpoints(options: WorkspaceCheckpointsOptions): WorkspaceCheckpoints {
  const now = options.now ?? Date.now
  const blobs: BlobStore = createBlobStore(join(options.dir, 'blobs'))
  const journal: Journal = createJournal(join(options.dir, 'journal.jsonl'))
  const shadow: ShadowRepo = createShadowRepo({
    gitDir: join(options.dir, 'git'),
    workspaceRoot: options.root,
    maxFileBytes: () => options.limits().maxFileBytes,
    extraExcludes: options.ignorePatterns,
    gitPath: options.gitPath
  })
  // Snapshots share one index: one git operation at a time per workspace.
  let gitTail: Promise<unknown> = Promise.resolve()
  const serialGit = <T>(work: () => Promise<T>): Promise<T> => {
    const next = gitTail.then(work, work)
    gitTail = next.catch(() => undefined)
    return next
  }
  const serialSnapshot = () => serialGit(() => shadow.snapshot())
  const serialChanges = (since: Snapshot) => serialGit(() => shadow.changesSince(since))

  const relativeTo = (absolutePath: string): string | null => {
    const rel = relative(options.root, absolutePath)
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) return null
    return rel.split(sep).join('/')
  }

  async function readCurrent(path: string): Promise<{ bytes: Buffer | null; executable: boolean }> {
    const full = join(options.root, path)
    const info = await lstat(full).catch(() => null)
    if (!info || !info.isFile()) return { bytes: null, executable: false }
    return { bytes: await readFile(full), executable: (info.mode & 0o111) !== 0 }
  }

  async function failure(taskId: string, message: string): Promise<void> {
    options.onFailure?.(taskId, message)
    await journal.append([{ kind: 'failure', taskId, at: now(), message }]).catch(() => undefined)
  }

  /** Per path: the first `before` and the last `after` of the task's changes after the marker. */
  function foldChanges(
    entries: JournalEntry[],
    taskId: string,
    fromIndex: number
  ): Map<string, { before: string | null; after: string | null; executable: boolean }> {
    const files = new Map<string, { before: string | null; after: string | null; executable: boolean }>()
    for (const entry of entries.slice(fromIndex)) {
      if (entry.kind !== 'change' || entry.taskId !== taskId) continue
      const known = files.get(entry.path)
      if (known) known.after = entry.after
      else files.set(entry.path, { before: entry.before, after: entry.after, executable: Boolean(entry.executable) })
    }
    return files
  }

  async function versions(files: ReturnType<typeof foldChanges>, checkConflicts: boolean): Promise<FileVersionPair[]> {
    const result: FileVersionPair[] = []
    for (const [path, { before, after, executable }] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
      const current = await readCurrent(path)
      const currentHash = current.bytes ? hashBytes(current.bytes) : null
      if (currentHash === before) continue
      const pair: FileVersionPair = {
        path,
        current: current.bytes,
        target: before ? await blobs.get(before) : null,
        executable
      }
      if (checkConflicts && currentHash !== after)
        pair.conflict = `${path} changed after Modus last wrote it (by you or another program); restoring would overwrite that`
      result.push(pair)
    }
    return result
  }

  async function dirBytes(dir: string): Promise<number> {
    let total = 0
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) total += await dirBytes(full)
      else total += (await stat(full).catch(() => null))?.size ?? 0
    }
    return total
  }

  async function collectGarbage(): Promise<void> {
    const keep = new Set<string>()
    for (const entry of await journal.read()) {
      if (entry.kind !== 'change') continue
      if (entry.before) keep.add(entry.before)
      if (entry.after) keep.add(entry.after)
    }
    await blobs.retainOnly(keep)
  }

  return {
    root: options.root,

    async mark(taskId, label) {
      const marker = { kind: 'marker' as const, id: randomUUID(), taskId, at: now(), label }
      await journal.append([marker])
      return { id: marker.id, taskId, at: marker.at, label, changedFiles: 0, skipped: [], failures: [] }
    },

    async recordWrite(taskId, absolutePath, write) {
      const path = relativeTo(absolutePath)
      if (!path) return write()
      let before: { bytes: Buffer | null; executable: boolean } | null = null
      try {
        before = await readCurrent(path)
      } catch (error) {
        await failure(taskId, `Could not save ${path} before writing it: ${(error as Error).message}`)
      }
      const result = await write()
      if (!before) return result
      try {
        const after = await readCurrent(path)
        const beforeHash = before.bytes ? await blobs.put(before.bytes) : null
        const afterHash = after.bytes ? await blobs.put(after.bytes) : null
        if (beforeHash !== afterHash) {
          await journal.append([
            {
              kind: 'change',
              taskId,
              at: now(),
              source: 'edit',
              action: randomUUID(),
              path,
              before: beforeHash,
              after: afterHash,
              executable: before.executable || after.executable
            }
          ])
        }
      } catch (error) {
        await failure(taskId, `Could not record the change to ${path}: ${(error as Error).message}`)
      }
      return result
    },

    async aroundCommand(taskId, run, source) {
      let before: Snapshot | null = null
      let failed: string | undefined
      try {
        before = await serialSnapshot()
      } catch (error) {
        failed = describeGitFailure(error, 'before')
      }
      const result = await run()
      if (!before) {
        await failure(taskId, failed!)
        return { result, capture: { changed: [], skipped: [], failure: failed } }
      }
      try {
        const found = await serialChanges(before)
        const action = randomUUID()
        const entries: JournalEntry[] = []
        for (const change of found.changes) {
          const beforeHash = change.before ? await blobs.put(change.before) : null
          const afterHash = change.after ? await blobs.put(change.after) : null
          entries.push({
            kind: 'change',
            taskId,
            at: now(),
            source: 'command',
            action,
            path: change.path,
            before: beforeHash,
            after: afterHash,
            executable: change.executable,
            ...(source && { command: source.command, callId: source.callId })
          })
        }
        const skipped = uniqueSkipped(found.skipped)
        if (skipped.length > 0) entries.push({ kind: 'skipped', taskId, at: now(), action, files: skipped })
        await journal.append(entries)
        return { result, capture: { changed: found.changes.map((c) => c.path), skipped } }
      } catch (error) {
        const message = describeGitFailure(error, 'after')
        await failure(taskId, message)
        return { result, capture: { changed: [], skipped: [], failure: message } }
      }
    },

    async markers(taskId) {
      const entries = await journal.read()
      const result: CheckpointMarker[] = []
      entries.forEach((entry, index) => {
        if (entry.taskId !== taskId) return
        if (entry.kind === 'marker') {
          result.push({
            id: entry.id,
            taskId,
            at: entry.at,
            label: entry.label,
            changedFiles: foldChanges(entries, taskId, index).size,
            skipped: [],
            failures: []
          })
        }
        const current = result.at(-1)
        if (current && entry.kind === 'skipped') current.skipped = uniqueSkipped([...current.skipped, ...entry.files])
        if (current && entry.kind === 'failure') current.failures.push(entry.message)
      })
      return result
    },

    async planRestore(taskId, markerId) {
      const entries = await journal.read()
      const index = entries.findIndex((e) => e.kind === 'marker' && e.id === markerId && e.taskId === taskId)
      if (index < 0) throw new Error(`Task ${taskId} has no checkpoint ${markerId}`)
      return versions(foldChanges(entries, taskId, index), true)
    },

    async commandChanges(taskId) {
      const found: CommandFileChange[] = []
      for (const entry of await journal.read()) {
        if (entry.kind !== 'change' || entry.source !== 'command' || entry.taskId !== taskId) continue
        const read = (hash: string | null) => (hash ? blobs.get(hash).catch(() => null) : Promise.resolve(null))
        found.push({
          path: entry.path,
          at: entry.at,
          command: entry.command,
          callId: entry.callId,
          action: entry.action,
          before: await read(entry.before),
          after: await read(entry.after)
        })
      }
      return found
    },

    async taskChanges(taskId) {
      return versions(foldChanges(await journal.read(), taskId, 0), false)
    },

    async failures(taskId) {
      return (await journal.read())
        .filter((e): e is Extract<JournalEntry, { kind: 'failure' }> => e.kind === 'failure' && e.taskId === taskId)
        .map((e) => e.message)
    },

    async pruneTask(taskId) {
      const entries = await journal.read()
      await journal.rewrite(entries.filter((e) => e.taskId !== taskId))
      await collectGarbage()
    },

    async enforceCap(keep) {
      const cap = options.limits().maxWorkspaceBytes
      let usage = await this.usage()
      if (usage.bytes <= cap) return
      // The shadow index and objects are only a change detector: start them over first.
      if (usage.gitBytes > 0) {
        await shadow.reset()
        usage = await this.usage()
      }
      while (usage.bytes > cap) {
        const entries = await journal.read()
        const oldest = entries.find((e) => e.taskId !== keep)?.taskId
        if (!oldest) return
        await this.pruneTask(oldest)
        usage = await this.usage()
      }
    },

    async usage() {
      const blobBytes = await dirBytes(join(options.dir, 'blobs'))
      const gitBytes = await dirBytes(join(options.dir, 'git'))
      const journalBytes = (await stat(join(options.dir, 'journal.jsonl')).catch(() => null))?.size ?? 0
      return { bytes: blobBytes + gitBytes + journalBytes, blobBytes, gitBytes }
    }
  }

  function uniqueSkipped(files: SkippedFile[]): SkippedFile[] {
    const byPath = new Map(files.map((f) => [f.path, f]))
    return [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path))
  }
}

function describeGitFailure(error: unknown, when: 'before' | 'after'): string {
  if (error instanceof GitMissingError) return `${error.message}.`
  return `The snapshot ${when} the command failed, so its changes to files were not captured: ${(error as Error).message}`
}
