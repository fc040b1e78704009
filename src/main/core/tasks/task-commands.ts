import { UserFacingError } from '../../../shared/contract/dispatch'
import type { CondenseOutcome } from '../../../shared/contract/task'
import { condenseHistory, MIN_MESSAGES_TO_CONDENSE, NOT_ENOUGH_HISTORY } from '../loop/context-window'
import type { TurnCheckpoints } from '../ports/loop-deps'
import type { LiveTask, LiveTasks } from './live-tasks'

export interface TaskCommandsDeps {
  tasks: LiveTasks
  ensureProvider(task: LiveTask): Promise<void>
  checkpoints?: TurnCheckpoints
  now: () => number
}

export interface SavedCheckpoint {
  checkpointId: string
  label: string
  changedSinceLast: number
}

/**
 * The composer's built-ins that change a task between its turns (`/condense`, `/checkpoint`). Each
 * refuses, saying why, while a turn runs or waits for an answer: the loop owns the conversation then.
 * While one works, a message or a resume for that task waits for it (`settled`).
 */
export interface TaskCommands {
  condense(taskId: string): Promise<CondenseOutcome>
  checkpoint(taskId: string, label?: string): Promise<SavedCheckpoint>
  /** Resolves once no command works on the task (at once when none does). */
  settled(taskId: string): Promise<void>
}

export const DEFAULT_CHECKPOINT_LABEL = 'Saved with /checkpoint'

export function createTaskCommands(deps: TaskCommandsDeps): TaskCommands {
  const working = new Map<string, Promise<unknown>>()

  /** Runs `work` on the task held between turns, then lets the task leave memory as a finished run does. */
  const between = <T>(taskId: string, command: string, work: (task: LiveTask) => Promise<T>): Promise<T> => {
    if (working.has(taskId))
      return Promise.reject(
        new UserFacingError(
          'task_busy',
          `Another command is still working on this task: ${command} waits until it ends.`
        )
      )
    const done = (async () => {
      const task = await deps.tasks.hydrate(taskId)
      if (task.run) throw new UserFacingError('task_busy', busyReason(command, task.session.status))
      try {
        return await work(task)
      } finally {
        if (!task.run && deps.tasks.get(taskId) === task) {
          deps.tasks.forget(taskId)
          task.session.close()
        }
      }
    })()
    working.set(taskId, done)
    void done
      .catch(() => undefined)
      .then(() => {
        if (working.get(taskId) === done) working.delete(taskId)
      })
    return done
  }

  return {
    condense: (taskId) =>
      between(taskId, '/condense', async (task) => {
        await deps.ensureProvider(task)
        const provider = task.provider
        if (!provider) throw new UserFacingError('no_provider', 'No model provider is configured for this task.')
        const controller = new AbortController()
        task.controller = controller
        try {
          const session = task.session
          const outcome = await condenseHistory(
            session,
            provider.provider,
            provider.model,
            controller.signal,
            deps.now,
            true
          )
          if (outcome.ok)
            return {
              hiddenMessages: outcome.hidden,
              tokensBefore: outcome.tokensBefore,
              tokensAfter: outcome.tokensAfter
            }
          if (controller.signal.aborted) throw new UserFacingError('cancelled', 'Condensing was cancelled.')
          if (outcome.reason === NOT_ENOUGH_HISTORY)
            throw new UserFacingError(
              'nothing_to_condense',
              `Nothing to condense yet: a summary replaces the turns between the task and the last answer, and this task has too few (it needs at least ${MIN_MESSAGES_TO_CONDENSE} messages).`
            )
          throw new UserFacingError('condense_failed', `The context was not condensed: ${outcome.reason}`)
        } finally {
          if (task.controller === controller) task.controller = null
        }
      }),

    checkpoint: (taskId, label) =>
      between(taskId, '/checkpoint', async (task) => {
        const checkpoints = deps.checkpoints
        if (!checkpoints)
          throw new UserFacingError('no_checkpoints', 'Checkpoints are not kept here, so none can be saved.')
        const session = task.session
        const workspace = session.meta.workspace
        const changedSinceLast = await checkpoints.changedSinceLast(session.id, workspace)
        const marker = await checkpoints.beginTurn(session.id, workspace, label?.trim() || DEFAULT_CHECKPOINT_LABEL)
        session.emit({
          type: 'checkpoint',
          at: deps.now(),
          checkpointId: marker.id,
          label: marker.label,
          messageCount: session.history.length,
          requested: true,
          changedSinceLast
        })
        return { checkpointId: marker.id, label: marker.label, changedSinceLast }
      }),

    settled: async (taskId) => {
      await working.get(taskId)?.catch(() => undefined)
    }
  }
}

function busyReason(command: string, status: string): string {
  return status === 'waiting'
    ? `The task is waiting for you (a question or an approval): answer it or cancel the task, then ${command}.`
    : `A turn is running: ${command} works between turns. Wait until the task stops or asks you, or cancel it.`
}
