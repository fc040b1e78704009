import { randomUUID } from 'node:crypto'
import type { TaskSummary } from '../../../shared/contract/task'
import { TaskLogWriteError } from '../store/task-log'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { TaskMeta } from '../store/task-records'
import type { TodoItem } from '../store/task-replay'
import type { AgentLoop, RunOutcome, RunStart } from '../loop/agent-loop'
import type { ApprovalQueue } from '../approvals/approval-queue'
import type { LiveTask, LiveTasks } from './live-tasks'
import type { LoopDeps, RunControl } from '../ports/loop-deps'
import type { ProviderPort } from '../ports/loop-ports'
import type { ImageAttachment } from '../../../shared/agent/images'
import { imagesForModel } from './image-input'

export interface StartTaskInput {
  text: string
  /** Images the user attached; refused before the task starts when the model does not take them. */
  images?: ImageAttachment[]
  mode?: string
  workspace: string
  /** A settings provider id; default: the active one. */
  providerId?: string
  parentId?: string
  parentCallId?: string
  todos?: TodoItem[]
  /** Run before the first request, through the policy like an execute_command call (an isolated task's setup). */
  setupCommand?: string
  /** Instead of a conversation: this one command, proposed by the user from the app, through the policy. */
  command?: { line: string; outsideSandbox: boolean }
}

export interface TaskRunsDeps {
  tasks: LiveTasks
  loop: () => AgentLoop
  gate: LoopDeps['gate']
  env: LoopDeps['env']
  approvals: ApprovalQueue
  now: () => number
  providerFor: (choice: { providerId?: string }) => Promise<ProviderPort>
  defaultMode: string
  /** Runs before a task starts or continues (re-reads the modes, which the user may have edited). */
  beforeRun?: () => Promise<void>
  /** A run ended (a parent may be waiting for it). */
  onRunEnded(taskId: string, outcome: RunOutcome): void
}

/** The life of a task's runs: start, run the loop, settle, cancel. */
export interface TaskRuns {
  start(input: StartTaskInput, inheritedProvider?: ProviderPort): Promise<TaskSummary>
  /** Runs the loop for the task; the task must have its provider (`ensureProvider`). */
  launch(task: LiveTask, start: RunStart): void
  ensureProvider(task: LiveTask): Promise<void>
  /** Stops the task and its running children; waits a moment for the run to settle. */
  cancel(taskId: string): Promise<TaskSummary>
}

const CANCEL_SETTLE_MS = 5_000

export function createTaskRuns(deps: TaskRunsDeps): TaskRuns {
  const { tasks, now } = deps

  /** Follow-up answers: the loop waits for the user's next message while a question is open. */
  const controlFor = (task: LiveTask, provider: ProviderPort, signal: AbortSignal): RunControl => ({
    signal,
    provider,
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
  })

  const launch = (task: LiveTask, start: RunStart): void => {
    if (!task.provider) throw new UserFacingError('no_provider', 'No model provider is configured for this task.')
    const controller = new AbortController()
    task.controller = controller
    const session = task.session
    task.run = deps
      .loop()
      .run(session, controlFor(task, task.provider, controller.signal), start)
      .catch((error: unknown): RunOutcome => {
        // A log the disk cannot take says so in its own words (which file, what to free); the
        // events below reach the user even though they cannot be written either.
        const message =
          error instanceof TaskLogWriteError
            ? error.message
            : `Internal error: ${error instanceof Error ? error.message : String(error)}`
        try {
          session.emit({ type: 'error', at: now(), message, recoverable: true })
        } catch {
          // Shown, not saved: the log already failed.
        }
        try {
          session.setStatus('failed')
        } catch {
          // As above.
        }
        return { status: 'failed' }
      })
      .then((outcome) => {
        task.run = null
        task.controller = null
        task.answerWaiters = []
        session.checkpoint()
        if (outcome.status === 'completed' || outcome.status === 'cancelled' || outcome.status === 'failed') {
          void deps.env.endRun?.(session.id).catch(() => undefined)
        }
        deps.onRunEnded(session.id, outcome)
        settled(task, outcome)
        return outcome
      })
  }

  /**
   * A message that arrived while the last request was finishing still gets an answer; otherwise the
   * finished task leaves memory (its log closes) and is reloaded from the log when needed again.
   */
  const settled = (task: LiveTask, outcome: RunOutcome): void => {
    const session = task.session
    const queued = session.queuedUserTexts
    if (queued.length > 0 && outcome.status !== 'cancelled' && task.provider) {
      const text = queued.splice(0).join('\n\n')
      launch(task, { kind: 'message', text, alreadyShown: true })
      return
    }
    if (queued.length > 0 || tasks.get(session.id) !== task) return
    tasks.forget(session.id)
    session.close()
  }

  const cancel = async (taskId: string): Promise<TaskSummary> => {
    const task = await tasks.hydrate(taskId)
    for (const child of tasks.all()) {
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
    async start(input, inheritedProvider) {
      await deps.beforeRun?.()
      const mode = input.mode ?? deps.defaultMode
      if (!deps.gate.mode(mode)) {
        throw new UserFacingError(
          'unknown_mode',
          `Unknown mode "${mode}". Available: ${deps.gate
            .modes()
            .map((m) => m.slug)
            .join(', ')}`
        )
      }
      const provider = inheritedProvider ?? (await deps.providerFor({ providerId: input.providerId }))
      const images = imagesForModel(input.images, provider)
      const meta: TaskMeta = {
        id: newTaskId(now()),
        title: titleOf(input.text, input.images),
        mode,
        workspace: input.workspace,
        createdAt: now(),
        parentId: input.parentId,
        parentCallId: input.parentCallId,
        providerId: input.providerId,
        model: provider.model,
        // An unknown price makes the cost unknown from the start, never $0.00.
        priceKnown:
          provider.info.costUsd({ inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }) !== null
      }
      const task = tasks.create(meta, provider)
      if (input.todos) task.session.setTodos(input.todos)
      launch(
        task,
        input.command
          ? {
              kind: 'command',
              text: input.text,
              command: input.command.line,
              outsideSandbox: input.command.outsideSandbox
            }
          : { kind: 'new', text: input.text, images, setupCommand: input.setupCommand }
      )
      return task.session.summary()
    },
    launch,
    async ensureProvider(task) {
      await deps.beforeRun?.()
      task.provider ??= await deps.providerFor({ providerId: task.session.meta.providerId })
    },
    cancel
  }
}

const titleOf = (text: string, images?: ImageAttachment[]): string => {
  const line = text.trim().split('\n')[0]?.trim() ?? ''
  // A task started with an image alone is named after it.
  const image = images?.length ? `Image${images[0]?.name ? `: ${images[0].name}` : ''}` : ''
  return line.length > 80 ? `${line.slice(0, 77)}…` : line || image || 'Untitled task'
}

/** Sortable by time, unique, and safe as a folder name. */
const newTaskId = (at: number): string => `${at.toString(36)}-${randomUUID().slice(0, 8)}`
