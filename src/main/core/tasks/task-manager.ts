import type { AgentEvent } from '../../../shared/agent/events'
import type { TaskSummary } from '../../../shared/contract/task'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { EventBus } from '../event-bus'
import { exportTaskFile } from '../store/task-export'
import type { TaskStore } from '../store/task-store'
import { createAgentLoop, type AgentLoop, type RunOutcome } from '../loop/agent-loop'
import type { ApprovalQueue } from '../approvals/approval-queue'
import { createLiveTasks, logProblemEvents } from './live-tasks'
import type { LoopDeps } from '../ports/loop-deps'
import type { ProviderPort } from '../ports/loop-ports'
import { rewindSession } from './rewind'
import { imagesForModel } from './image-input'
import type { ImageAttachment } from '../../../shared/agent/images'
import { createSubtasks, type IsolatedSubtaskStarter } from './subtasks'
import { createTaskRuns, type StartTaskInput } from './task-runs'
import { createTaskCommands, type SavedCheckpoint } from './task-commands'
import type { CondenseOutcome } from '../../../shared/contract/task'
import type { ModelCost } from '../../../shared/agent/events'
import { costByModel } from '../../../shared/agent/command-rows'
import type { SessionHooks, TaskSession } from '../ports/task-session'

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
  /** Subtasks in their own worktrees (`new_task` with `isolated: true`); absent: refused, saying why. */
  isolatedSubtasks?: IsolatedSubtaskStarter
}

export interface TaskManager {
  /** `provider`: a parent's, for a child started elsewhere (an isolated subtask's worktree). */
  start(input: StartTaskInput, provider?: ProviderPort): Promise<TaskSummary>
  send(input: { taskId: string; text: string; mode?: string; images?: ImageAttachment[] }): Promise<TaskSummary>
  cancel(taskId: string): Promise<TaskSummary>
  /** Ends a running task's wait before a retried request; false when it is not waiting to retry. */
  retryNow(taskId: string): boolean
  resume(taskId: string): Promise<TaskSummary>
  /** `/condense`: summarises the earlier conversation now (between turns); refused, saying why, otherwise. */
  condense(taskId: string): Promise<CondenseOutcome>
  /** `/checkpoint`: a checkpoint of the files now (between turns), with its row in the chat. */
  checkpoint(taskId: string, label?: string): Promise<SavedCheckpoint>
  /** `/cost`: the task's usage per model, also left as a row in its chat (never sent to the model). */
  cost(taskId: string): Promise<ModelCost[]>
  /** Stops the task if it runs and takes the conversation back to a checkpoint (files untouched). */
  rewind(taskId: string, checkpointId: string): Promise<TaskSummary>
  list(): TaskSummary[]
  /** Reads again the tasks other processes on the same data dir run or finished (before a list is shown). */
  refresh(): Promise<void>
  events(taskId: string): Promise<AgentEvent[]>
  delete(taskId: string): Promise<boolean>
  export(taskId: string, format: 'markdown' | 'json'): Promise<{ fileName: string; content: string }>
  /** Resolves when the task's current run ends (immediately when none is running). */
  whenSettled(taskId: string): Promise<RunOutcome | null>
  /** After a restart: marks tasks that were running as interrupted and asks their pending approvals again. */
  recover(options?: { reaskApprovals?: boolean }): Promise<string[]>
  subscribe(listener: (taskId: string, event: AgentEvent) => void): () => void
  /**
   * Adds an event to a task from outside its run (a sandboxed command's network ask, which may come
   * from a command still running after its task's run ended): a task not in memory is loaded for
   * it and put back. Events of one task are added in the order given.
   */
  record(taskId: string, event: AgentEvent): Promise<void>
  readonly agentLoop: AgentLoop
  dispose(): Promise<void>
}

/**
 * The tasks the user sees: a facade over the tasks in memory (live-tasks), their runs (task-runs)
 * and the subtasks they start, publishing every event and summary.
 */
export function createTaskManager(deps: TaskManagerDeps): TaskManager {
  const now = deps.loop.now
  const listeners = new Set<(taskId: string, event: AgentEvent) => void>()

  const publishSummary = (session: TaskSession) => {
    const summary = session.summary()
    deps.store.putSummary(summary)
    deps.bus?.emit('task:updated', summary)
  }
  const hooks: SessionHooks = {
    onEvent(session, event) {
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
    onSummary: publishSummary
  }

  const tasks = createLiveTasks({ store: deps.store, now, hooks })
  const subtasks = createSubtasks({
    tasks,
    now,
    start: (input, provider) => runs.start(input, provider),
    async resume(child) {
      await runs.ensureProvider(child)
      runs.launch(child, { kind: 'resume' })
    },
    cancel: (taskId) => runs.cancel(taskId),
    isolated: deps.isolatedSubtasks
  })
  const agentLoop = createAgentLoop({ ...deps.loop, approvals: deps.approvals, subtasks })
  const runs = createTaskRuns({
    tasks,
    loop: () => agentLoop,
    gate: deps.loop.gate,
    env: deps.loop.env,
    approvals: deps.approvals,
    now,
    providerFor: deps.providerFor,
    defaultMode: deps.defaultMode,
    beforeRun: deps.beforeRun,
    onRunEnded: subtasks.runEnded
  })
  const { cancel, launch, ensureProvider } = runs
  const commands = createTaskCommands({ tasks, ensureProvider, checkpoints: deps.loop.checkpoints, now })
  const recording = new Map<string, Promise<void>>()
  const addEvent = async (taskId: string, event: AgentEvent): Promise<void> => {
    const live = tasks.get(taskId)
    if (live) return live.session.emit(event)
    const task = await tasks.hydrate(taskId)
    task.session.emit(event)
    if (!task.run && tasks.get(taskId) === task) {
      tasks.forget(taskId)
      task.session.close()
    }
  }

  const manager: TaskManager = {
    agentLoop,
    start: (input, provider) => runs.start(input, provider),
    async send({ taskId, text, mode, images }) {
      // A /condense or /checkpoint at work finishes first: the message goes after it.
      await commands.settled(taskId)
      const task = await tasks.hydrate(taskId)
      const session = task.session
      if (task.run && task.provider) {
        const blocks = imagesForModel(images, task.provider)
        const waiter = task.answerWaiters.shift()
        session.emit({ type: 'user-message', at: now(), text, ...(images?.length ? { images } : {}) })
        session.queuedUserImages.push(...blocks)
        if (waiter) waiter({ text, mode })
        else session.queuedUserTexts.push(text)
        return session.summary()
      }
      await ensureProvider(task)
      const blocks = task.provider ? imagesForModel(images, task.provider) : []
      if (mode && mode !== session.mode && deps.loop.gate.mode(mode)) session.setMode(mode, 'chosen by the user')
      launch(task, { kind: 'message', text, images: blocks })
      return session.summary()
    },
    cancel,
    retryNow(taskId) {
      const wake = tasks.get(taskId)?.session.retryNow
      if (!wake) return false
      wake()
      return true
    },
    async resume(taskId) {
      await commands.settled(taskId)
      const task = await tasks.hydrate(taskId)
      // A completed task continues with a message (its answer to the result), not with resume.
      if (task.run || task.session.status === 'completed') return task.session.summary()
      await ensureProvider(task)
      launch(task, { kind: 'resume' })
      return task.session.summary()
    },
    condense: (taskId) => commands.condense(taskId),
    checkpoint: (taskId, label) => commands.checkpoint(taskId, label),
    async cost(taskId) {
      const models = costByModel(await manager.events(taskId))
      await manager.record(taskId, { type: 'cost-report', at: now(), models })
      return models
    },
    async rewind(taskId, checkpointId) {
      await commands.settled(taskId)
      const running = (await tasks.hydrate(taskId)).run
      if (running) {
        await cancel(taskId)
        await running.catch(() => undefined)
      }
      // A run that ended closed its log: the task is loaded again from it.
      const task = await tasks.hydrate(taskId)
      rewindSession(task.session, checkpointId, now)
      return task.session.summary()
    },
    list: () => deps.store.list(),
    refresh: () => deps.store.refresh(),
    async events(taskId) {
      const task = tasks.get(taskId)
      if (task) return [...task.session.events, ...logProblemEvents(task.logProblems ?? [], now())]
      const replayed = await deps.store.load(taskId)
      if (!replayed) throw new UserFacingError('not_found', `No task with id ${taskId}.`)
      return [...replayed.events, ...logProblemEvents(replayed.problems, now())]
    },
    async delete(taskId) {
      const task = tasks.get(taskId)
      if (task) {
        await cancel(taskId)
        task.session.close()
        tasks.forget(taskId)
      }
      await deps.loop.env.disposeTask?.(taskId).catch(() => undefined)
      return deps.store.delete(taskId)
    },
    async export(taskId, format) {
      tasks.get(taskId)?.session.checkpoint()
      const replayed = await deps.store.load(taskId)
      if (!replayed) throw new UserFacingError('not_found', `No task with id ${taskId}.`)
      return exportTaskFile(replayed, format)
    },
    async whenSettled(taskId) {
      const task = tasks.get(taskId)
      return task?.run ? task.run : null
    },
    async recover(options = {}) {
      const resumed: string[] = []
      for (const summary of deps.store.list()) {
        if (tasks.has(summary.id)) continue
        // The store shows a task as interrupted only when the process that ran it is gone: a task that
        // another live process runs (a CLI run beside the app) is left to it.
        if (summary.status !== 'interrupted') continue
        const replayed = await deps.store.load(summary.id).catch(() => null)
        if (!replayed) continue
        const stoppedMidRun = replayed.lastStatus === 'running' || replayed.lastStatus === 'waiting'
        if (!stoppedMidRun) continue
        const task = await tasks.hydrate(summary.id)
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
    record(taskId, event) {
      // A deleted task has nowhere to show it; the approval queue still does.
      const next = (recording.get(taskId) ?? Promise.resolve())
        .then(() => addEvent(taskId, event))
        .catch(() => undefined)
      recording.set(taskId, next)
      void next.then(() => {
        if (recording.get(taskId) === next) recording.delete(taskId)
      })
      return next
    },
    async dispose() {
      for (const task of tasks.all()) task.controller?.abort()
      await Promise.all(tasks.all().map((task) => task.run?.catch(() => undefined) ?? Promise.resolve()))
      for (const task of tasks.all()) task.session.close()
      tasks.clear()
      await deps.store.flush()
    }
  }
  return manager
}
