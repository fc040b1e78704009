import { randomUUID } from 'node:crypto'
import { promises as fs, realpathSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import type { AgentEvent } from '../../../shared/agent/events'
import type { TaskSummary } from '../../../shared/contract/task'
import type { ImageAttachment } from '../../../shared/agent/images'
import type {
  OrphanWorktree,
  WorktreeSetup,
  WorktreeSettings,
  WorktreeSettingsInput,
  WorktreeTask,
  WorktreeTaskState
} from '../../../shared/contract/worktrees'
import { UserFacingError } from '../../../shared/contract/dispatch'
import { loadWorktreeRecords, type WorktreeRecord, type WorktreeRecords } from '../worktrees/worktree-records'
import { loadWorktreeSettings, type WorktreeSettingsStore } from '../worktrees/worktree-settings'
import {
  addWorktree,
  branchExists,
  carryChanges,
  changedFileCount,
  copyListed,
  describeWorktree,
  folderBytes,
  gitDataDirs,
  offeredFiles,
  removeWorktree,
  repoIdOf,
  repoOf,
  slugify,
  snapshotOnBranch,
  WorktreeError,
  type RepoOf
} from '../worktrees/worktree-git'
import type { ProviderPort } from '../ports/loop-ports'
import type { TodoItem } from '../store/task-replay'
import type { StartTaskInput } from './task-runs'

/** Each isolated task's own ports: `PORT` = `MODUS_PORT_BASE` = the first of its block. */
export const PORT_RANGE = { first: 41_000, blockSize: 10, blocks: 2_000 } as const

export interface WorktreeTaskDeps {
  dataDir: string
  /** The task manager's side the worktrees use. */
  tasks: {
    start(input: StartTaskInput, provider?: ProviderPort): Promise<TaskSummary>
    list(): TaskSummary[]
    cancel(taskId: string): Promise<TaskSummary>
    resume(taskId: string): Promise<TaskSummary>
    delete(taskId: string): Promise<boolean>
  }
  /** Whether the user trusts this folder (a worktree of a trusted folder is trusted, of an untrusted one not). */
  folderTrusted: (root: string) => boolean
  /** The mode of a subtask that names none. */
  defaultMode: string
  /** The whole list changed (a worktree added, started, removed, or a task's state moved). */
  onChange?: (tasks: WorktreeTask[]) => void
  /** Empty files running sandboxes keep over absent protected paths (absolute): never a task's changes. */
  placeholders?: () => readonly string[]
  now?: () => number
}

export interface WorktreeTasks {
  /** Makes the worktree now (base = HEAD now) and starts its task, or queues it when every slot is taken. */
  start(input: {
    workspace: string
    text: string
    mode: string
    name?: string
    carryChanges?: boolean
    parentTaskId?: string
    parentCallId?: string
    /** Images attached to the task text (kept in memory until it starts). */
    images?: ImageAttachment[]
  }): Promise<WorktreeTask>
  list(): Promise<WorktreeTask[]>
  get(id: string): Promise<WorktreeTask | undefined>
  orphans(): Promise<OrphanWorktree[]>
  discard(id: string): Promise<{ removed: boolean; branchDeleted: boolean }>
  discardOrphan(path: string): Promise<{ removed: boolean }>
  settings(workspace: string | null): Promise<WorktreeSettings>
  saveSettings(workspace: string | null, input: WorktreeSettingsInput): Promise<WorktreeSettings>
  prune(): Promise<{ removed: string[]; spaceUsedBytes: number }>
  /**
   * An Orchestrator's subtask with `isolated: true`: its worktree is made now from the parent's
   * folder, and its id comes once it starts (it queues while every slot is taken). A cancel while
   * it queues removes the worktree and branch: nothing ran.
   */
  startSubtask(input: StartTaskInput, provider: ProviderPort | undefined, signal: AbortSignal): Promise<string>
  /** The worktree of an isolated task: its branch, changed-file count and folder (null: not isolated). */
  describeTask(taskId: string): Promise<{ branch: string; changedFiles: number; path: string } | null>
  /** After a restart: queued tasks start as slots allow; tasks cut off mid-run resume in their worktrees. */
  recover(): Promise<string[]>
  /** A task's event: its setup call's progress is kept; a state change may free a slot for the next queued task. */
  taskEvent(taskId: string, event: AgentEvent): void
  /** The open folder whose trust a worktree's root carries (null: not a worktree). */
  sourceOf(root: string): string | null
  /** `PORT` and `MODUS_PORT_BASE` of an isolated task's shell (empty for other tasks). */
  taskEnv(taskId: string): Record<string, string>
  /**
   * The repository a worktree came from, and its git data (the worktree's admin folder and the
   * common dir, wherever they are): read-only for the worktree's sandboxed commands, so none can
   * rewrite the user's tree, history, refs, config or hooks. Empty outside any worktree.
   */
  repositoryDirs(root: string): string[]
  /** Every worktree folder, so a sandboxed command of one task cannot read another's. */
  worktreeFolders(): string[]
  /**
   * The placeholders a running sandbox keeps in this worktree (relative paths): left out of its
   * changed files, its review and the commit a Merge or a prune makes.
   */
  placeholdersIn(worktree: string): string[]
  readonly dir: string
}

export async function createWorktreeTasks(deps: WorktreeTaskDeps): Promise<WorktreeTasks> {
  const now = deps.now ?? Date.now
  const dir = join(deps.dataDir, 'worktrees')
  const records: WorktreeRecords = await loadWorktreeRecords(join(dir, '.records'))
  const settings: WorktreeSettingsStore = await loadWorktreeSettings(join(dir, 'settings.json'))
  let draining: Promise<void> = Promise.resolve()
  /** What a queued subtask starts with beyond its record (kept in memory only), and who waits for its start. */
  const launchExtras = new Map<string, LaunchExtras>()
  const launching = new Set<string>()

  const summaryOf = (taskId: string | undefined): TaskSummary | undefined =>
    taskId === undefined ? undefined : deps.tasks.list().find((task) => task.id === taskId)
  const stateOf = (record: WorktreeRecord): WorktreeTaskState => {
    if (record.startError) return 'failed'
    if (!record.taskId) return 'queued'
    return STATE_OF_STATUS[summaryOf(record.taskId)?.status ?? 'interrupted']
  }
  const active = (record: WorktreeRecord) => {
    const state = stateOf(record)
    return state === 'running' || state === 'waiting' || state === 'queued'
  }
  /** A task waiting for its own isolated subtasks leaves its slot to them (or a limit of 1 would never end). */
  const waitsOnChildren = (record: WorktreeRecord) =>
    record.taskId !== undefined &&
    records.list().some((child) => child.parentTaskId === record.taskId && !child.startError && active(child))
  const occupiesSlot = (record: WorktreeRecord) => {
    const state = stateOf(record)
    return (state === 'running' || state === 'waiting') && !waitsOnChildren(record)
  }

  const placeholdersIn = (worktree: string): string[] => {
    const roots = [resolve(worktree), realOrSelf(worktree)]
    return (deps.placeholders?.() ?? []).flatMap((path) => {
      const root = roots.find((top) => path.startsWith(top + sep))
      return root ? [relative(root, path).split(sep).join('/')] : []
    })
  }
  const changedFilesOf = (record: WorktreeRecord): Promise<number> =>
    record.pruned
      ? Promise.resolve(0)
      : changedFileCount(record.path, record.baseCommit, placeholdersIn(record.path)).catch(() => 0)

  const view = async (record: WorktreeRecord): Promise<WorktreeTask> => {
    const summary = summaryOf(record.taskId)
    const changedFiles = await changedFilesOf(record)
    return {
      id: record.id,
      taskId: record.taskId,
      name: record.name,
      title: summary?.title ?? titleOf(record.text),
      mode: summary?.mode ?? record.mode,
      branch: record.branch,
      baseCommit: record.baseCommit,
      path: record.path,
      repoRoot: record.repoRoot,
      state: stateOf(record),
      changedFiles,
      costUsd: summary?.costUsd ?? null,
      createdAt: record.createdAt,
      portBase: record.portBase,
      portCount: record.portCount,
      carriedChanges: record.carriedChanges,
      copiedFiles: record.copiedFiles,
      setup: record.setup,
      parentTaskId: record.parentTaskId,
      pruned: record.pruned,
      startError: record.startError
    }
  }
  const list = () => Promise.all(records.list().map(view))
  const changed = () => {
    if (deps.onChange) void list().then(deps.onChange, () => undefined)
  }

  const sourceOf = (root: string): string | null => {
    const target = resolve(root)
    for (const record of records.list()) {
      const top = resolve(record.path)
      if (target === top || target.startsWith(top + sep)) return record.sourceWorkspace
    }
    return null
  }

  /** Slugs of worktrees being made (not listed yet): two made at once with the same text get two slugs. */
  const slugsInMaking = new Set<string>()
  /** A free slug, held in `slugsInMaking` until its record is listed or the making failed (the caller lets it go). */
  const uniqueSlug = async (repoRoot: string, base: string): Promise<string> => {
    const taken = (slug: string) => slugsInMaking.has(slug) || records.list().some((record) => record.slug === slug)
    for (let n = 1; ; n++) {
      const slug = n === 1 ? base : `${base}-${n}`
      if (taken(slug)) continue
      if (await branchExists(repoRoot, `modus/${slug}`)) continue
      const path = join(dir, repoIdOf(repoRoot), slug)
      if (
        await fs.stat(path).then(
          () => true,
          () => false
        )
      )
        continue
      // Checked again: another worktree may have taken it while git and the disk were asked.
      if (taken(slug)) continue
      slugsInMaking.add(slug)
      return slug
    }
  }
  const freePortBase = (): number => {
    const used = new Set(records.list().map((record) => record.portBase))
    for (let block = 0; block < PORT_RANGE.blocks; block++) {
      const base = PORT_RANGE.first + block * PORT_RANGE.blockSize
      if (!used.has(base)) return base
    }
    throw new UserFacingError('no_ports', 'Every port block is taken: discard finished isolated tasks first.')
  }

  const launch = async (record: WorktreeRecord): Promise<void> => {
    const extras = launchExtras.get(record.id)
    launchExtras.delete(record.id)
    launching.add(record.id)
    let summary: TaskSummary
    try {
      summary = await deps.tasks.start(
        {
          text: record.text,
          mode: record.mode,
          workspace: record.workspace,
          parentId: record.parentTaskId,
          parentCallId: record.parentCallId,
          todos: extras?.todos,
          images: extras?.images,
          setupCommand: record.setupCommand
        },
        extras?.provider
      )
    } catch (error) {
      if (!extras?.onLaunch) throw error
      // A subtask that cannot start leaves nothing behind; its parent's call says why.
      extras.onLaunch({ error: messageOf(error) })
      await forgetUnstarted(record.id).catch(() => undefined)
      return
    } finally {
      launching.delete(record.id)
    }
    // Told at once (before the record is written), so the parent waits for the child before it can end.
    extras?.onLaunch?.({ taskId: summary.id })
    const setup = record.setupCommand ? { command: record.setupCommand, status: 'pending' as const } : undefined
    await records.put({ ...record, taskId: summary.id, setup })
  }

  /** Starts queued tasks, oldest first, while slots are free; one drain at a time. */
  const drain = (): Promise<void> => {
    draining = draining.then(async () => {
      for (;;) {
        const running = records.list().filter(occupiesSlot).length
        const next = records
          .list()
          .filter((record) => !record.taskId && !record.pruned && !record.startError)
          .sort((a, b) => a.createdAt - b.createdAt)[0]
        if (!next || running >= settings.maxConcurrent()) break
        // A task that cannot start (no provider, unknown mode) keeps its worktree and says why; nothing ran.
        await launch(next).catch((error: unknown) => records.put({ ...next, startError: messageOf(error) }))
      }
      changed()
    })
    const done = draining
    draining = draining.catch(() => undefined)
    return done
  }

  /**
   * Makes the worktree and its record. The record's launch extras are registered with it: a drain
   * already running (another task's) may start it as soon as it is listed, before this returns.
   */
  const create = async (
    input: Parameters<WorktreeTasks['start']>[0],
    extras?: LaunchExtras
  ): Promise<WorktreeRecord> => {
    const repo = await repoOf(input.workspace).catch((error: unknown) => {
      throw error instanceof WorktreeError ? new UserFacingError(error.code, error.message) : error
    })
    const slug = await uniqueSlug(
      repo.root,
      slugify(input.name ?? input.text.split(/\s+/).slice(0, 6).join(' ')) || 'task'
    )
    try {
      return await makeWorktree(input, extras, repo, slug)
    } finally {
      // Listed now (its record holds the slug), or it failed and the slug is free again.
      slugsInMaking.delete(slug)
    }
  }

  const makeWorktree = async (
    input: Parameters<WorktreeTasks['start']>[0],
    extras: LaunchExtras | undefined,
    repo: RepoOf,
    slug: string
  ): Promise<WorktreeRecord> => {
    const path = join(dir, repoIdOf(repo.root), slug)
    const branch = `modus/${slug}`
    // A subtask of an isolated task starts from its parent's worktree: the trust is of the folder behind both.
    const source = sourceOf(input.workspace) ?? input.workspace
    const trusted = deps.folderTrusted(source)
    await addWorktree({ repo, path, branch, untrusted: !trusted })
    try {
      const carried = input.carryChanges ? (await carryChanges(repo, path)) > 0 : false
      const repoSettings = settings.forRepo(repo.root)
      const copiedFiles = await copyListed(repo.root, path, repoSettings.copyFiles)
      const record: WorktreeRecord = {
        version: 1,
        id: `wt-${now().toString(36)}-${randomUUID().slice(0, 6)}`,
        name: input.name?.trim() || slug,
        slug,
        branch,
        baseCommit: repo.head,
        path,
        workspace: repo.subdir ? join(path, ...repo.subdir.split('/')) : path,
        repoRoot: repo.root,
        sourceWorkspace: source,
        createdAt: now(),
        text: input.text,
        mode: input.mode,
        parentTaskId: input.parentTaskId,
        parentCallId: input.parentCallId,
        portBase: freePortBase(),
        portCount: PORT_RANGE.blockSize,
        carriedChanges: carried,
        copiedFiles,
        setupCommand: repoSettings.setupCommand || undefined,
        pruned: false
      }
      if (extras) launchExtras.set(record.id, extras)
      await records.put(record).catch((error: unknown) => {
        launchExtras.delete(record.id)
        throw error
      })
      return record
    } catch (error) {
      // Half-made: nothing of it stays behind (the branch has no commit of its own yet).
      await removeWorktree(repo.root, path, branch, true)
      throw error
    }
  }

  /** A worktree whose task never started (refused, or its parent cancelled while it queued): nothing of it stays. */
  const forgetUnstarted = async (id: string): Promise<void> => {
    const record = records.get(id)
    if (!record || record.taskId) return
    await removeWorktree(record.repoRoot, record.path, record.branch, true)
    await records.remove(record.id)
    changed()
  }

  const startSubtask = (input: StartTaskInput, provider: ProviderPort | undefined, signal: AbortSignal) =>
    new Promise<string>((resolveStart, reject) => {
      let recordId: string | null = null
      let launched = false
      const onAbort = () => {
        // Still being made: the abort is seen once it is listed (below). Being started, or started: onLaunch hears it.
        if (recordId === null || launched || launching.has(recordId)) return
        launchExtras.delete(recordId)
        void forgetUnstarted(recordId).catch(() => undefined)
        reject(new Error('The parent task was cancelled before the subtask started.'))
      }
      const extras: LaunchExtras = {
        provider,
        todos: input.todos,
        onLaunch(result) {
          launched = true
          signal.removeEventListener('abort', onAbort)
          if ('error' in result) return reject(new Error(result.error))
          if (signal.aborted) {
            void deps.tasks.cancel(result.taskId).catch(() => undefined)
            return reject(new Error('The parent task was cancelled.'))
          }
          resolveStart(result.taskId)
        }
      }
      signal.addEventListener('abort', onAbort, { once: true })
      const made = create(
        {
          workspace: input.workspace,
          text: input.text,
          mode: input.mode ?? deps.defaultMode,
          parentTaskId: input.parentId,
          parentCallId: input.parentCallId
        },
        extras
      )
      made.then(
        (record) => {
          recordId = record.id
          if (signal.aborted) onAbort()
          else void drain().catch(() => undefined)
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort)
          reject(error instanceof Error ? error : new Error(messageOf(error)))
        }
      )
    })

  const discard = async (record: WorktreeRecord) => {
    if (record.taskId && occupiesSlot(record)) await deps.tasks.cancel(record.taskId).catch(() => undefined)
    const result = await removeWorktree(record.repoRoot, record.path, record.branch, true)
    if (result.removed) {
      await records.remove(record.id)
      if (record.taskId) await deps.tasks.delete(record.taskId).catch(() => false)
    }
    return result
  }

  const orphans = async (): Promise<OrphanWorktree[]> => {
    const known = new Map(records.list().map((record) => [resolve(record.path), record]))
    const found: OrphanWorktree[] = []
    for (const repoDir of await childDirs(dir)) {
      for (const path of await childDirs(repoDir)) {
        const record = known.get(resolve(path))
        const taskGone = record?.taskId !== undefined && !summaryOf(record.taskId)
        if (record && !taskGone) continue
        const git = await describeWorktree(path)
        found.push({
          path,
          branch: git.branch,
          repoRoot: git.repoRoot ?? record?.repoRoot ?? null,
          bytes: await folderBytes(path),
          reason: record
            ? 'Its task was deleted.'
            : 'No task record owns it (Modus stopped while making it, or its record was lost).'
        })
      }
    }
    return found
  }

  const spaceUsed = async () => {
    let total = 0
    for (const repoDir of await childDirs(dir)) total += await folderBytes(repoDir)
    return total
  }

  const settingsView = async (workspace: string | null): Promise<WorktreeSettings> => {
    const repoRoot = workspace
      ? await repoOf(workspace).then(
          (repo) => repo.root,
          () => null
        )
      : null
    return {
      ...settings.forRepo(repoRoot),
      repoRoot,
      offeredFiles: repoRoot ? await offeredFiles(repoRoot) : [],
      spaceUsedBytes: await spaceUsed(),
      dir
    }
  }

  const pruneOne = async (record: WorktreeRecord): Promise<void> => {
    const message = `Modus: ${record.name} (kept when its worktree was pruned)`
    await snapshotOnBranch(record.path, message, placeholdersIn(record.path)).catch(() => false)
    const { removed } = await removeWorktree(record.repoRoot, record.path, record.branch, false)
    if (removed) await records.put({ ...record, pruned: true })
  }

  return {
    dir,
    async start(input) {
      const record = await create(input, input.images?.length ? { images: input.images } : undefined)
      await drain().catch(() => undefined)
      const current = records.get(record.id) ?? record
      if (current.startError) {
        // Started at once and refused: the user sees why, and nothing of it stays behind.
        await removeWorktree(current.repoRoot, current.path, current.branch, true)
        await records.remove(current.id)
        changed()
        throw new UserFacingError('start_failed', current.startError)
      }
      return view(current)
    },
    startSubtask(input, provider, signal) {
      return startSubtask(input, provider, signal)
    },
    async describeTask(taskId) {
      const record = records.byTask(taskId)
      if (!record) return null
      return { branch: record.branch, changedFiles: await changedFilesOf(record), path: record.path }
    },
    list,
    async get(id) {
      const record = records.get(id)
      return record && view(record)
    },
    orphans,
    async discard(id) {
      const record = records.get(id)
      if (!record) throw new UserFacingError('not_found', `No isolated task with id ${id}.`)
      const result = await discard(record)
      changed()
      void drain().catch(() => undefined)
      return result
    },
    async discardOrphan(path) {
      const orphan = (await orphans()).find((entry) => resolve(entry.path) === resolve(path))
      if (!orphan) throw new UserFacingError('not_found', `${path} is not an orphaned worktree.`)
      const record = records.list().find((entry) => resolve(entry.path) === resolve(path))
      const result = await removeWorktree(orphan.repoRoot, orphan.path, orphan.branch, true)
      if (result.removed && record) await records.remove(record.id)
      return { removed: result.removed }
    },
    settings: settingsView,
    async saveSettings(workspace, input) {
      const repoRoot = workspace
        ? await repoOf(workspace).then(
            (repo) => repo.root,
            () => null
          )
        : null
      await settings.save(repoRoot, input)
      void drain().catch(() => undefined)
      return settingsView(workspace)
    },
    async prune() {
      const { pruneAfterDays, maxTotalMb } = settings.forRepo(null)
      const finished = records
        .list()
        .filter((record) => !record.pruned && ['done', 'failed'].includes(stateOf(record)))
        .sort((a, b) => lastActive(a) - lastActive(b))
      const removed: string[] = []
      const maxAgeMs = pruneAfterDays * 24 * 60 * 60 * 1000
      for (const record of finished) {
        if (maxAgeMs > 0 && now() - lastActive(record) > maxAgeMs) {
          await pruneOne(record)
          removed.push(record.id)
        }
      }
      let used = await spaceUsed()
      for (const record of finished) {
        if (maxTotalMb <= 0 || used <= maxTotalMb * 1024 * 1024) break
        if (removed.includes(record.id)) continue
        const bytes = await folderBytes(record.path)
        await pruneOne(record)
        removed.push(record.id)
        used -= bytes
      }
      if (removed.length > 0) changed()
      return { removed, spaceUsedBytes: await spaceUsed() }
    },
    async recover() {
      const resumed: string[] = []
      for (const record of records.list()) {
        if (!record.taskId || record.pruned) continue
        if (summaryOf(record.taskId)?.status !== 'interrupted') continue
        try {
          await deps.tasks.resume(record.taskId)
          resumed.push(record.taskId)
        } catch {
          // No provider now, or another process runs it: it stays stopped until the user resumes it.
        }
      }
      await drain().catch(() => undefined)
      return resumed
    },
    taskEvent(taskId, event) {
      const record = records.byTask(taskId)
      if (!record) return
      const setup = record.setup && setupProgress(record.setup, `setup-${taskId}`, event)
      if (setup) void records.put({ ...record, setup }).then(changed, () => undefined)
      if (event.type !== 'status') return
      changed()
      void drain().catch(() => undefined)
    },
    sourceOf,
    taskEnv(taskId): Record<string, string> {
      const record = records.byTask(taskId)
      if (!record) return {}
      return {
        PORT: String(record.portBase),
        MODUS_PORT_BASE: String(record.portBase),
        MODUS_PORT_COUNT: String(record.portCount)
      }
    },
    repositoryDirs(root) {
      const target = resolve(root)
      const record = records
        .list()
        .find((entry) => target === resolve(entry.path) || target.startsWith(resolve(entry.path) + sep))
      return record ? [record.repoRoot, ...gitDataDirs(record.path)] : []
    },
    worktreeFolders: () => records.list().map((record) => record.path),
    placeholdersIn
  }

  function lastActive(record: WorktreeRecord): number {
    return summaryOf(record.taskId)?.updatedAt ?? record.createdAt
  }
}

interface LaunchExtras {
  /** The parent's provider: a subtask asks the same model. */
  provider?: ProviderPort
  todos?: TodoItem[]
  images?: ImageAttachment[]
  onLaunch?(result: { taskId: string } | { error: string }): void
}

const STATE_OF_STATUS: Record<TaskSummary['status'], WorktreeTaskState> = {
  running: 'running',
  waiting: 'waiting',
  completed: 'done',
  failed: 'failed',
  idle: 'stopped',
  stopped: 'stopped',
  cancelled: 'stopped',
  interrupted: 'stopped'
}

async function childDirs(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => join(dir, entry.name))
}

/** The setup call's events move its status: running, then passed, failed (non-zero exit) or refused. */
function setupProgress(setup: WorktreeSetup, callId: string, event: AgentEvent): WorktreeSetup | null {
  if (!('callId' in event) || event.callId !== callId) return null
  if (event.type === 'tool-decision' && event.decision === 'deny')
    return { ...setup, status: 'refused', message: event.reason }
  if (event.type === 'tool-started') return { ...setup, status: 'running' }
  if (event.type !== 'tool-result' || setup.status === 'refused') return null
  const exit = /exit(?:ed with)? code (\d+)/.exec(event.text)
  return {
    ...setup,
    status: event.isError ? 'failed' : 'passed',
    exitCode: exit ? Number(exit[1]) : null,
    ...(event.isError ? { message: event.text.slice(0, 2000) } : {})
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const titleOf = (text: string): string => {
  const line = text.trim().split('\n')[0]?.trim() ?? ''
  return line.length > 80 ? `${line.slice(0, 77)}…` : line || 'Untitled task'
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}
