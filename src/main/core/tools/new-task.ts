import type { NewTaskParams } from '../../../shared/tools/new-task'
import { resultText } from '../ports/call-results'
import type { SubtaskOutcome } from '../ports/loop-deps'
import { parseTodoChecklist } from '../ports/todos'
import type { TodoItem } from '../store/task-replay'
import { invalidModeText } from './switch-mode'
import { textOutput, type TaskToolExecutor } from '../ports/tool-types'

/** Starts a child task in another mode and waits for it; its result becomes this call's result. */
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
    session.setStatus('waiting')
    const outcome = await loop.subtasks.run(
      session,
      { callId, mode: params.mode, message: params.message, todos },
      control.signal
    )
    if (control.signal.aborted) return { kind: 'cancelled', output: textOutput(resultText.cancelled('new_task')) }
    session.setStatus('running')
    return { kind: 'result', output: textOutput(subtaskResultText(outcome)) }
  },
  async reattach({ session, loop, control, callId }) {
    const outcome = await loop.subtasks.reattach(session, callId, control.signal)
    return outcome ? textOutput(subtaskResultText(outcome)) : null
  }
}

const subtaskResultText = (outcome: SubtaskOutcome): string =>
  outcome.status === 'completed'
    ? `Subtask ${outcome.childId} completed.\n\nResult:\n${outcome.result}`
    : `Subtask ${outcome.childId} ended without completing (${outcome.status}). ${outcome.result}`
