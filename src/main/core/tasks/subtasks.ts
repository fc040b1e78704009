import type { TaskSummary } from '../../../shared/contract/task'
import type { RunOutcome } from '../loop/agent-loop'
import type { LiveTask, LiveTasks } from './live-tasks'
import type { SubtaskOutcome, SubtaskPort, SubtaskRequest } from '../ports/loop-deps'
import type { ProviderPort } from '../ports/loop-ports'
import type { StartTaskInput } from './task-runs'
import type { TaskSession } from '../ports/task-session'

export interface SubtasksDeps {
  tasks: LiveTasks
  now: () => number
  /** Starts the child task (with the parent's provider). */
  start(input: StartTaskInput, provider?: ProviderPort): Promise<TaskSummary>
  /** Continues a child that stopped with the app. */
  resume(child: LiveTask): Promise<void>
  cancel(taskId: string): Promise<unknown>
  /** Subtasks asked for with `isolated: true` (absent: such a call fails, saying why). */
  isolated?: IsolatedSubtaskStarter
}

/** Isolated subtasks: each in its own git worktree, started once a slot of the concurrency limit is free. */
export interface IsolatedSubtaskStarter {
  /**
   * Makes the worktree and starts the child there; resolves with the child's id once it runs (it
   * may queue first). A cancel while it waits removes the worktree; nothing ran.
   */
  start(input: StartTaskInput, provider: ProviderPort | undefined, signal: AbortSignal): Promise<string>
  /** The child's worktree after it ended: branch, changed-file count, folder. */
  describe(childId: string): Promise<SubtaskOutcome['worktree'] | null>
}

/** The subtask port the loop's new_task uses, plus the hook that hands a child's end to its parent. */
export interface Subtasks extends SubtaskPort {
  /** A task's run ended: a parent waiting on it receives its outcome. */
  runEnded(taskId: string, outcome: RunOutcome): void
}

/** Child tasks: started for a parent's new_task call, waited for, reported in the parent's chat. */
export function createSubtasks(deps: SubtasksDeps): Subtasks {
  const { now } = deps
  const childWaiters = new Map<string, (outcome: SubtaskOutcome) => void>()
  /**
   * Outcomes of children that ended before their parent waited for them (an isolated child may run
   * and end before its start reaches the parent): kept until the parent waits or its own run ends.
   */
  const endedEarly = new Map<string, { parentId: string; outcome: SubtaskOutcome }>()

  /** Resolves when the child completes or is cancelled; cancelling the parent cancels the child. */
  const waitForChild = (childId: string, signal: AbortSignal) =>
    new Promise<SubtaskOutcome>((resolve) => {
      const early = endedEarly.get(childId)
      if (early) {
        endedEarly.delete(childId)
        return resolve(early.outcome)
      }
      childWaiters.set(childId, resolve)
      signal.addEventListener(
        'abort',
        () => {
          void deps.cancel(childId)
          resolve({ childId, status: 'cancelled', result: 'The parent task was cancelled.' })
        },
        { once: true }
      )
    }).finally(() => childWaiters.delete(childId))

  /** A child's end reaches the parent waiting for it, or is kept for it; a parent's end drops what it left. */
  const childEnded = (taskId: string, outcome: SubtaskOutcome): void => {
    const waiter = childWaiters.get(taskId)
    if (waiter) return waiter(outcome)
    const parentId = deps.tasks.get(taskId)?.session.meta.parentId
    if (parentId) endedEarly.set(taskId, { parentId, outcome })
  }
  const parentEnded = (taskId: string): void => {
    for (const [childId, kept] of endedEarly) if (kept.parentId === taskId) endedEarly.delete(childId)
  }

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

  /** A child that completed while its parent's process was gone: its result, from its log. */
  const completedOutcome = (child: LiveTask): SubtaskOutcome => {
    const childId = child.session.id
    const completion = [...child.session.events].reverse().find((e) => e.type === 'completion')
    if (!child.run && deps.tasks.get(childId) === child) {
      deps.tasks.forget(childId)
      child.session.close()
    }
    return { childId, status: 'completed', result: completion?.type === 'completion' ? completion.result : '' }
  }

  /** An isolated child's outcome names its branch and changed files (the parent's result says where the work is). */
  const withWorktree = async (outcome: SubtaskOutcome): Promise<SubtaskOutcome> => {
    const worktree = await deps.isolated?.describe(outcome.childId).catch(() => null)
    return worktree ? { ...outcome, worktree } : outcome
  }

  /** Starts the child (in its own worktree when isolated); null with the reason when it could not start. */
  const startChild = async (
    parent: TaskSession,
    request: SubtaskRequest,
    signal: AbortSignal
  ): Promise<{ childId: string } | { failed: string }> => {
    const input: StartTaskInput = {
      text: request.message,
      mode: request.mode,
      workspace: parent.meta.workspace,
      parentId: parent.id,
      parentCallId: request.callId,
      todos: request.todos
    }
    const provider = deps.tasks.get(parent.id)?.provider ?? undefined
    if (!request.isolated) return { childId: (await deps.start(input, provider)).id }
    if (!deps.isolated) return { failed: 'Isolated subtasks are not available here: call new_task without isolated.' }
    try {
      return { childId: await deps.isolated.start(input, provider, signal) }
    } catch (error) {
      return { failed: `The isolated subtask did not start: ${error instanceof Error ? error.message : String(error)}` }
    }
  }

  return {
    async run(parent, request, signal) {
      const started = await startChild(parent, request, signal)
      if ('failed' in started) {
        return signal.aborted
          ? { childId: '', status: 'cancelled', result: 'The parent task was cancelled.' }
          : { childId: '', status: 'failed', result: started.failed }
      }
      const { childId } = started
      parent.emit({
        type: 'subtask',
        at: now(),
        callId: request.callId,
        childId,
        mode: request.mode,
        status: 'started',
        message: request.message
      })
      const outcome = await waitForChild(childId, signal)
      reportChild(parent, request.callId, request.mode, outcome)
      return request.isolated ? withWorktree(outcome) : outcome
    },
    async reattach(parent, callId, signal) {
      const started = parent.events.find((e) => e.type === 'subtask' && e.callId === callId && e.status === 'started')
      if (!started || started.type !== 'subtask') return null
      const child = await deps.tasks.hydrate(started.childId).catch(() => null)
      if (!child) return null
      if (child.session.status === 'completed') {
        const outcome = completedOutcome(child)
        reportChild(parent, callId, started.mode, outcome)
        return withWorktree(outcome)
      }
      parent.setStatus('waiting')
      const waiting = waitForChild(started.childId, signal)
      if (!child.run) await deps.resume(child)
      const outcome = await waiting
      reportChild(parent, callId, started.mode, outcome)
      if (!signal.aborted) parent.setStatus('running')
      return withWorktree(outcome)
    },
    runEnded(taskId, outcome) {
      parentEnded(taskId)
      if (outcome.status === 'completed' || outcome.status === 'cancelled') {
        childEnded(taskId, {
          childId: taskId,
          status: outcome.status,
          result: outcome.result ?? 'The subtask was cancelled.'
        })
      }
    }
  }
}
