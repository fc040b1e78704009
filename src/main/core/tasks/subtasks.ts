import type { TaskSummary } from '../../../shared/contract/task'
import type { RunOutcome } from '../loop/agent-loop'
import type { LiveTask, LiveTasks } from './live-tasks'
import type { SubtaskOutcome, SubtaskPort } from '../ports/loop-deps'
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

  /** Resolves when the child completes or is cancelled; cancelling the parent cancels the child. */
  const waitForChild = (childId: string, signal: AbortSignal) =>
    new Promise<SubtaskOutcome>((resolve) => {
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

  return {
    async run(parent, request, signal) {
      const child = await deps.start(
        {
          text: request.message,
          mode: request.mode,
          workspace: parent.meta.workspace,
          parentId: parent.id,
          parentCallId: request.callId,
          todos: request.todos
        },
        deps.tasks.get(parent.id)?.provider ?? undefined
      )
      parent.emit({
        type: 'subtask',
        at: now(),
        callId: request.callId,
        childId: child.id,
        mode: request.mode,
        status: 'started',
        message: request.message
      })
      const outcome = await waitForChild(child.id, signal)
      reportChild(parent, request.callId, request.mode, outcome)
      return outcome
    },
    async reattach(parent, callId, signal) {
      const started = parent.events.find((e) => e.type === 'subtask' && e.callId === callId && e.status === 'started')
      if (!started || started.type !== 'subtask') return null
      const child = await deps.tasks.hydrate(started.childId).catch(() => null)
      if (!child) return null
      if (child.session.status === 'completed') {
        const outcome = completedOutcome(child)
        reportChild(parent, callId, started.mode, outcome)
        return outcome
      }
      parent.setStatus('waiting')
      const waiting = waitForChild(started.childId, signal)
      if (!child.run) await deps.resume(child)
      const outcome = await waiting
      reportChild(parent, callId, started.mode, outcome)
      if (!signal.aborted) parent.setStatus('running')
      return outcome
    },
    runEnded(taskId, outcome) {
      const waiter = childWaiters.get(taskId)
      if (waiter && (outcome.status === 'completed' || outcome.status === 'cancelled')) {
        waiter({ childId: taskId, status: outcome.status, result: outcome.result ?? 'The subtask was cancelled.' })
      }
    }
  }
}
