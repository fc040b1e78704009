import type { UpdateTodoListParams } from '../../../shared/tools/update-todo-list'
import { parseTodoChecklist } from '../ports/todos'
import { textOutput, type TaskToolExecutor } from '../ports/tool-types'

/** Replaces the task's todo list; a malformed checklist counts as a mistake and says what is wrong. */
export const updateTodoListExecutor: TaskToolExecutor<UpdateTodoListParams> = {
  async execute(params, { session }) {
    const parsed = parseTodoChecklist(params.todos)
    if (!parsed.ok) {
      session.counters.mistakes++
      return { kind: 'result', output: textOutput(parsed.error) }
    }
    session.setTodos(parsed.items)
    return { kind: 'result', output: textOutput('Todo list updated.') }
  }
}
