import { randomUUID } from 'node:crypto'
import { rewindSession } from './rewind'
import type { AgentEvent } from '../../../shared/agent/events'
import type { TaskSummary } from '../../../shared/contract/task'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { EventBus } from '../event-bus'
import { exportTaskJson, exportTaskMarkdown } from '../store/task-export'
import type { TaskMeta } from '../store/task-records'
import type { ReplayedTask, TodoItem } from '../store/task-replay'
import type { TaskStore } from '../store/task-store'
import { createAgentLoop, type AgentLoop, type RunOutcome, type RunStart } from './agent-loop'
import type { ApprovalQueue } from './approval-queue'
import { textResult } from './call-results'
import type { LoopDeps, SubtaskOutcome, SubtaskPort } from './loop-deps'
import { openToolUses } from './open-calls'
import type { ProviderPort } from './ports'
import { createTaskSession, type TaskSession } from './task-session'

export interface StartTaskInput {
  text: string
  mode?: string
  workspace: string
  /** A settings provider id; default: the active one. */
  providerId?: string
  parentId?: string
  parentCallId?: string
  todos?: TodoItem[]
}

export interface TaskManagerDeps {
  store: TaskStore
  approvals: ApprovalQueue
  /** Everything the loop needs except the subtask port, which the manager provides. */
  loop: Omit<LoopDeps, 'subtasks' | 'approvals'>
  /** The provider for a task; throws a UserFacingError naming the setting to fix. */
  providerFor: (choice: { providerId?: string }) => Promise<ProviderPort>
  defaultMode: string
  bus?: EventBus
  /** Runs before a task starts or continues (re-reads the modes, which the user may have edited). */
  beforeRun?: () => Promise<void>
}

export interface TaskManager {
  start(input: StartTaskInput): Promise<TaskSummary>
  send(input: { taskId: string; text: string; mode?: string }): Promise<TaskSummary>
  cancel(taskId: string): Promise<TaskSummary>
  resume(taskId: string): Promise<TaskSummary>
  /** Stops the task if it runs and takes the conversation back to a checkpoint (files untouched). */
  rewind(taskId: string, checkpointId: string): Promise<TaskSummary>
  list(): TaskSummary[]
  events(taskId: string): Promise<AgentEvent[]>
  delete(taskId: string): Promise<boolean>
  export(taskId: string, format: 'markdown' | 'json'): Promise<{ fileName: string; content: string }>
  /** Resolves when the task's current run ends (immediately when none is running). */
  whenSettled(taskId: string): Promise<RunOutcome | null>
  /** After a restart: marks tasks that were running as interrupted and asks their pending approvals again. */
  recover(options?: { reaskApprovals?: boolean }): Promise<string[]>
  subscribe(listener: (taskId: string, event: AgentEvent) => void): () => void
  readonly agentLoop: AgentLoop
  dispose(): Promise<void>
}

interface LiveTask {
  session: TaskSession
  controller: AbortController | null
  run: Promise<RunOutcome> | null
  provider: ProviderPort | null
  answerWaiters: Array<(answer: { text: string; mode?: string }) => void>
}

const CANCEL_SETTLE_MS = 5_000

export function createTaskManager(deps: TaskManagerDeps): TaskManager {
  const now = deps.loop.now
  const live = new Map<string, LiveTask>()
  const listeners = new Set<(taskId: string, event: AgentEvent) => void>()
  const childWaiters = new Map<string, (outcome: SubtaskOutcome) => void>()

  const hooks = {
    onEvent(session: TaskSession, event: AgentEvent) {
      deps.bus?.emit('task:event', { taskId: session.id, event })
      for (const listener of listeners) {
        try {
          listener(session.id, event)
        } catch {
          // A broken listener must not break the task.
        }
      }
      if (event.type === 'usage') publishSummary(session)
    },
    onSummary: (session: TaskSession) => publishSummary(session)
  }
  const publishSummary = (session: TaskSession) => {
    const summary = session.summary()
    deps.store.putSummary(summary)
    deps.bus?.emit('task:updated', summary)
  }

  /** Resolves when the child completes or is cancelled; cancelling the parent cancels the child. */
  const waitForChild = (childId: string, signal: AbortSignal) =>
    new Promise<SubtaskOutcome>((resolve) => {
      childWaiters.set(childId, resolve)
      signal.addEventListener(
        'abort',
        () => {
          void cancel(childId)
          resolve({ childId, status: 'cancelled', result: 'The parent task was cancelled.' })
        },
        { once: true }
      )
    }).finally(() => childWaiters.delete(childId))

  const reportChild = (parent: TaskSession, callId: string, mode: string, outcome: SubtaskOutcome) =>
    parent.emit({
      type: 'subtask',
      at: now(),
      callId,
      childId: outcome.childId,
      mode,
      status: outcome.status === 'completed' ? 'completed' : 'failed',
      result: outcome.result
    })

  const subtasks: SubtaskPort = {
    async run(parent, request, signal) {
      const parentLive = live.get(parent.id)
      const child = await startTask(
        { text: request.message, mode: request.mode, workspace: parent.meta.workspace, parentId: parent.id, parentCallId: request.callId, todos: request.todos },
        parentLive?.provider ?? undefined
      )
      parent.emit({ type: 'subtask', at: now(), callId: request.callId, childId: child.id, mode: request.mode, status: 'started', message: request.message })
      const outcome = await waitForChild(child.id, signal)
      reportChild(parent, request.callId, request.mode, outcome)
      return outcome
    },
    async reattach(parent, callId, signal) {
      const started = parent.events.find((e) => e.type === 'subtask' && e.callId === callId && e.status === 'started')
      if (!started || started.type !== 'subtask') return null
      const childId = started.childId
      const child = await hydrate(childId).catch(() => null)
      if (!child) return null
      if (child.session.status === 'completed') {
        const completion = [...child.session.events].reverse().find((e) => e.type === 'completion')
        const outcome: SubtaskOutcome = { childId, status: 'completed', result: completion?.type === 'completion' ? completion.result : '' }
        if (!child.run && live.get(childId) === child) {
          live.delete(childId)
          child.session.close()
        }
        reportChild(parent, callId, started.mode, outcome)
        return outcome
      }
      parent.setStatus('waiting')
      const waiting = waitForChild(childId, signal)
      if (!child.run) {
        await ensureProvider(child)
        launch(child, { kind: 'resume' })
      }
      const outcome = await waiting
      reportChild(parent, callId, started.mode, outcome)
      if (!signal.aborted) parent.setStatus('running')
      return outcome
    }
  }

  const agentLoop = createAgentLoop({ ...deps.loop, approvals: deps.approvals, subtasks })

  const launch = (task: LiveTask, start: RunStart) => {
    if (!task.provider) throw new UserFacingError('no_provider', 'No model provider is configured for this task.')
    const controller = new AbortController()
    task.controller = controller
    const control = {
      signal: controller.signal,
      provider: task.provider,
      nextAnswer: () => {
        let waiter: ((answer: { text: string; mode?: string }) => void) | undefined
        const answer = new Promise<{ text: string; mode?: string }>((resolve) => {
          waiter = resolve
          task.answerWaiters.push(resolve)
        })
        return {
          answer,
          withdraw: () => {
            task.answerWaiters = task.answerWaiters.filter((w) => w !== waiter)
          }
        }
      }
    }
    const session = task.session
    task.run = agentLoop
      .run(session, control, start)
      .catch((error: unknown): RunOutcome => {
        session.emit({ type: 'error', at: now(), message: `Internal error: ${error instanceof Error ? error.message : String(error)}`, recoverable: true })
        session.setStatus('failed')
        return { status: 'failed' }
      })
      .then((outcome) => {
        task.run = null
        task.controller = null
        task.answerWaiters = []
        session.checkpoint()
        if (outcome.status === 'completed' || outcome.status === 'cancelled' || outcome.status === 'failed') {
          void deps.loop.env.endRun?.(session.id).catch(() => undefined)
        }
        const waiter = childWaiters.get(session.id)
        if (waiter && (outcome.status === 'completed' || outcome.status === 'cancelled')) {
          waiter({ childId: session.id, status: outcome.status, result: outcome.result ?? 'The subtask was cancelled.' })
        }
        settled(task, outcome)
        return outcome
      })
  }

  /**
   * A message that arrived while the last request was finishing still gets an answer; otherwise the
   * finished task leaves memory (its log closes) and is reloaded from the log when needed again.
   */
  const settled = (task: LiveTask, outcome: RunOutcome) => {
    const session = task.session
    const queued = session.queuedUserTexts
    if (queued.length > 0 && outcome.status !== 'cancelled' && task.provider) {
      const text = queued.splice(0).join('\n\n')
      launch(task, { kind: 'message', text, alreadyShown: true })
      return
    }
    if (queued.length > 0 || live.get(session.id) !== task) return
    live.delete(session.id)
    session.close()
  }

  const startTask = async (input: StartTaskInput, inheritedProvider?: ProviderPort): Promise<TaskSummary> => {
    await deps.beforeRun?.()
    const mode = input.mode ?? deps.defaultMode
    if (!deps.loop.gate.mode(mode)) {
      throw new UserFacingError('unknown_mode', `Unknown mode "${mode}". Available: ${deps.loop.gate.modes().map((m) => m.slug).join(', ')}`)
    }
    const provider = inheritedProvider ?? (await deps.providerFor({ providerId: input.providerId }))
    const meta: TaskMeta = {
      id: newTaskId(now()),
      title: titleOf(input.text),
      mode,
      workspace: input.workspace,
      createdAt: now(),
      parentId: input.parentId,
      parentCallId: input.parentCallId,
      providerId: input.providerId,
      model: provider.model
    }
    const session = createTaskSession({ meta, log: deps.store.create(meta), now }, hooks)
    const task: LiveTask = { session, controller: null, run: null, provider, answerWaiters: [] }
    live.set(meta.id, task)
    if (input.todos) session.setTodos(input.todos)
    launch(task, { kind: 'new', text: input.text })
    return session.summary()
  }

  /** Loads a task that is not in memory, recording that it was interrupted if it stopped mid-run. */
  const hydrate = async (taskId: string): Promise<LiveTask> => {
    const existing = live.get(taskId)
    if (existing) return existing
    const replayed = await deps.store.load(taskId)
    if (!replayed) throw new UserFacingError('not_found', `No task with id ${taskId}.`)
    const session = createTaskSession({ meta: replayed.meta, log: deps.store.reopen(taskId), replayed, now }, hooks)
    restoreResults(session, replayed)
    for (const approval of replayed.unansweredApprovals) {
      session.emit({ type: 'approval-resolved', at: now(), approvalId: approval.approvalId, outcome: 'cancelled', reason: 'Modus stopped before it was answered; it is asked again on resume.' })
    }
    const interrupted = replayed.lastStatus === 'running' || replayed.lastStatus === 'waiting'
    session.status = replayed.lastStatus
    if (interrupted) session.setStatus('interrupted')
    const task: LiveTask = { session, controller: null, run: null, provider: null, answerWaiters: [] }
    live.set(taskId, task)
    return task
  }

  const ensureProvider = async (task: LiveTask) => {
    await deps.beforeRun?.()
    task.provider ??= await deps.providerFor({ providerId: task.session.meta.providerId })
  }

  const cancel = async (taskId: string): Promise<TaskSummary> => {
    const task = await hydrate(taskId)
    for (const child of live.values()) {
      if (child.session.meta.parentId === taskId && child.run) void cancel(child.session.id)
    }
    task.controller?.abort()
    deps.approvals.cancelTask(taskId)
    if (task.run) {
      await Promise.race([task.run, new Promise((resolve) => setTimeout(resolve, CANCEL_SETTLE_MS).unref?.())])
    }
    return task.session.summary()
  }

  return {
    agentLoop,
    start: (input) => startTask(input),
    async send({ taskId, text, mode }) {
      const task = await hydrate(taskId)
      const session = task.session
      if (task.run) {
        const waiter = task.answerWaiters.shift()
        session.emit({ type: 'user-message', at: now(), text })
        if (waiter) waiter({ text, mode })
        else session.queuedUserTexts.push(text)
        return session.summary()
      }
      await ensureProvider(task)
      if (mode && mode !== session.mode && deps.loop.gate.mode(mode)) session.setMode(mode, 'chosen by the user')
      launch(task, { kind: 'message', text })
      return session.summary()
    },
    cancel,
    async resume(taskId) {
      const task = await hydrate(taskId)
      // A completed task continues with a message (its answer to the result), not with resume.
      if (task.run || task.session.status === 'completed') return task.session.summary()
      await ensureProvider(task)
      launch(task, { kind: 'resume' })
      return task.session.summary()
    },
    async rewind(taskId, checkpointId) {
      const running = (await hydrate(taskId)).run
      if (running) {
        await cancel(taskId)
        await running.catch(() => undefined)
      }
      // A run that ended closed its log: the task is loaded again from it.
      const task = await hydrate(taskId)
      rewindSession(task.session, checkpointId, now)
      return task.session.summary()
    },
    list: () => deps.store.list(),
    async events(taskId) {
      const task = live.get(taskId)
      if (task) return [...task.session.events]
      const replayed = await deps.store.load(taskId)
      if (!replayed) throw new UserFacingError('not_found', `No task with id ${taskId}.`)
      return replayed.events
    },
    async delete(taskId) {
      const task = live.get(taskId)
      if (task) {
        await cancel(taskId)
        task.session.close()
        live.delete(taskId)
      }
      await deps.loop.env.disposeTask?.(taskId).catch(() => undefined)
      return deps.store.delete(taskId)
    },
    async export(taskId, format) {
      live.get(taskId)?.session.checkpoint()
      const replayed = await deps.store.load(taskId)
      if (!replayed) throw new UserFacingError('not_found', `No task with id ${taskId}.`)
      const base = `modus-task-${slugOf(replayed.meta.title)}-${taskId.slice(0, 8)}`
      return format === 'markdown'
        ? { fileName: `${base}.md`, content: exportTaskMarkdown(replayed) }
        : { fileName: `${base}.json`, content: exportTaskJson(replayed) }
    },
    async whenSettled(taskId) {
      const task = live.get(taskId)
      return task?.run ? task.run : null
    },
    async recover(options = {}) {
      const resumed: string[] = []
      for (const summary of deps.store.list()) {
        if (live.has(summary.id)) continue
        if (summary.status !== 'running' && summary.status !== 'waiting' && summary.status !== 'interrupted') continue
        const replayed = await deps.store.load(summary.id).catch(() => null)
        if (!replayed) continue
        const stoppedMidRun = replayed.lastStatus === 'running' || replayed.lastStatus === 'waiting'
        if (!stoppedMidRun) continue
        const task = await hydrate(summary.id)
        if (options.reaskApprovals && replayed.unansweredApprovals.length > 0) {
          try {
            await ensureProvider(task)
            launch(task, { kind: 'resume' })
            resumed.push(summary.id)
          } catch {
            // No provider configured: the task stays interrupted until the user resumes it.
          }
        }
      }
      return resumed
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async dispose() {
      for (const task of live.values()) task.controller?.abort()
      await Promise.all([...live.values()].map((task) => task.run?.catch(() => undefined)))
      for (const task of live.values()) task.session.close()
      live.clear()
      await deps.store.flush()
    }
  }
}

/** Results already produced for the open calls (before the app stopped) are reused, not re-run. */
function restoreResults(session: TaskSession, replayed: ReplayedTask): void {
  const open = new Set(openToolUses(session).map((call) => call.id))
  if (open.size === 0) return
  for (const event of replayed.events) {
    if (event.type === 'tool-result' && open.has(event.callId)) {
      session.results.set(event.callId, textResult(event.callId, event.text, event.isError))
    }
  }
}

const titleOf = (text: string): string => {
  const line = text.trim().split('\n')[0]?.trim() ?? ''
  return line.length > 80 ? `${line.slice(0, 77)}…` : line || 'Untitled task'
}

const slugOf = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'task'

/** Sortable by time, unique, and safe as a folder name. */
const newTaskId = (at: number): string => `${at.toString(36)}-${randomUUID().slice(0, 8)}`
