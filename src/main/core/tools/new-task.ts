import type { NewTaskParams } from '../../../shared/tools/new-task'
import { resultText } from '../ports/call-results'
import type { SubtaskOutcome } from '../ports/loop-deps'
import { parseTodoChecklist } from '../ports/todos'
import type { TodoItem } from '../store/task-replay'
import { invalidModeText } from './switch-mode'
import { textOutput, type TaskToolExecutor, type TaskToolOutcome } from '../ports/tool-types'

/**
 * Starts a child task in another mode and waits for it; its result becomes this call's result. An
 * isolated child runs in its own worktree, and the parent goes on to the message's next call (the
 * next isolated subtask) while it runs.
 */
export const newTaskExecutor: TaskToolExecutor<NewTaskParams> = {
  async execute(params, ctx) {
    const { session, loop, control, callId } = ctx
    if (!loop.gate.mode(params.mode)) return { kind: 'result', output: textOutput(invalidModeText(params.mode, ctx)) }
    let todos: TodoItem[] | undefined
    if (params.todos?.trim()) {
      const parsed = parseTodoChecklist(params.todos)
      if (!parsed.ok) return { kind: 'result', output: textOutput(parsed.error) }
      todos = parsed.items
    }
    session.emit({ type: 'tool-started', at: loop.now(), callId })
    const request = { callId, mode: params.mode, message: params.message, todos, isolated: params.isolated === true }
    const ended = (outcome: SubtaskOutcome): Exclude<TaskToolOutcome, { kind: 'parallel' }> =>
      control.signal.aborted
        ? { kind: 'cancelled', output: textOutput(resultText.cancelled('new_task')) }
        : { kind: 'result', output: textOutput(subtaskResultText(outcome)) }
    if (request.isolated)
      return { kind: 'parallel', outcome: loop.subtasks.run(session, request, control.signal).then(ended) }
    session.setStatus('waiting')
    const outcome = ended(await loop.subtasks.run(session, request, control.signal))
    if (outcome.kind === 'result') session.setStatus('running')
    return outcome
  },
  async reattach({ session, loop, control, callId }) {
    const outcome = await loop.subtasks.reattach(session, callId, control.signal)
    return outcome ? textOutput(subtaskResultText(outcome)) : null
  }
}

const subtaskResultText = (outcome: SubtaskOutcome): string =>
  (outcome.status === 'completed'
    ? `Subtask ${outcome.childId} completed.\n\nResult:\n${outcome.result}`
    : `Subtask ${outcome.childId} ended without completing (${outcome.status}). ${outcome.result}`) +
  worktreeLine(outcome.worktree)

const worktreeLine = (worktree: SubtaskOutcome['worktree']): string => {
  if (!worktree) return ''
  const files = `${worktree.changedFiles} changed file${worktree.changedFiles === 1 ? '' : 's'}`
  return `\n\nIts work is on branch ${worktree.branch} (${files} against the commit it started from), in the worktree ${worktree.path}. It reaches the user's working tree only when they review and apply it.`
}
