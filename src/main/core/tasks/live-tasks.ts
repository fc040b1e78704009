import type { AgentEvent } from '../../../shared/agent/events'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { TaskMeta } from '../store/task-records'
import type { ReplayedTask } from '../store/task-replay'
import type { TaskStore } from '../store/task-store'
import type { RunOutcome } from '../loop/agent-loop'
import { textResult } from '../ports/call-results'
import { openToolUses } from '../loop/open-calls'
import type { ProviderPort } from '../ports/loop-ports'
import { createTaskSession, type SessionHooks, type TaskSession } from '../ports/task-session'

/** A task held in memory: its session and, while it runs, the run and how to stop or answer it. */
export interface LiveTask {
  session: TaskSession
  controller: AbortController | null
  run: Promise<RunOutcome> | null
  provider: ProviderPort | null
  answerWaiters: Array<(answer: { text: string; mode?: string }) => void>
  /** Damaged lines its log was loaded with: shown with its events, never written into it. */
  logProblems?: string[]
}

/** The tasks in memory; a task that is not is loaded again from its log (hydrated) when needed. */
export interface LiveTasks {
  get(taskId: string): LiveTask | undefined
  has(taskId: string): boolean
  all(): LiveTask[]
  /** A new task with its log. */
  create(meta: TaskMeta, provider: ProviderPort): LiveTask
  /** Loads a task that is not in memory, recording that it was interrupted if it stopped mid-run. */
  hydrate(taskId: string): Promise<LiveTask>
  /** Takes the task out of memory (its log is closed by the caller). */
  forget(taskId: string): void
  clear(): void
}

export interface LiveTasksDeps {
  store: TaskStore
  now: () => number
  hooks: SessionHooks
}

export function createLiveTasks(deps: LiveTasksDeps): LiveTasks {
  const { now, store, hooks } = deps
  const live = new Map<string, LiveTask>()
  const held = (session: TaskSession, provider: ProviderPort | null): LiveTask => {
    const task: LiveTask = { session, controller: null, run: null, provider, answerWaiters: [] }
    live.set(session.id, task)
    return task
  }

  return {
    get: (taskId) => live.get(taskId),
    has: (taskId) => live.has(taskId),
    all: () => [...live.values()],
    create: (meta, provider) => held(createTaskSession({ meta, log: store.create(meta), now }, hooks), provider),
    async hydrate(taskId) {
      const existing = live.get(taskId)
      if (existing) return existing
      await store.refresh([taskId])
      const elsewhere = store.runningElsewhere(taskId)
      // Two processes appending to one log would interleave their turns: the live one keeps the task.
      if (elsewhere !== null)
        throw new UserFacingError(
          'busy',
          `This task is running in another Modus process (pid ${elsewhere}); wait for it to finish, or stop it there, before continuing it here.`
        )
      // A torn last line is cut off before anything is appended, or the next record would be lost with it.
      const setAside = await store.setAsideTornTail(taskId)
      const replayed = await store.load(taskId)
      if (!replayed) throw new UserFacingError('not_found', `No task with id ${taskId}.`)
      const session = createTaskSession({ meta: replayed.meta, log: store.reopen(taskId), replayed, now }, hooks)
      if (setAside) session.emit({ type: 'error', at: now(), message: setAside, recoverable: true })
      restoreResults(session, replayed)
      for (const approval of replayed.unansweredApprovals) {
        session.emit({
          type: 'approval-resolved',
          at: now(),
          approvalId: approval.approvalId,
          outcome: 'cancelled',
          reason: 'Modus stopped before it was answered; it is asked again on resume.'
        })
      }
      const interrupted = replayed.lastStatus === 'running' || replayed.lastStatus === 'waiting'
      session.status = replayed.lastStatus
      if (interrupted) session.setStatus('interrupted')
      return Object.assign(held(session, null), { logProblems: replayed.problems })
    },
    forget: (taskId) => live.delete(taskId),
    clear: () => live.clear()
  }
}

/** What was wrong in a task's log, for the chat (each damaged line was skipped, the rest kept). */
export const logProblemEvents = (problems: readonly string[], at: number): AgentEvent[] =>
  problems.map((problem) => ({
    type: 'error',
    at,
    message: `This task's log is damaged at ${problem}.`,
    recoverable: true
  }))

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
