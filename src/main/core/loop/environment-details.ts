import type { TodoItem } from '../store/task-replay'
import { formatTodos } from '../ports/todos'
import type { LoopMode } from '../ports/loop-ports'

export interface EnvironmentInput {
  now: Date
  mode: LoopMode
  todos: TodoItem[]
  terminal: string
  /** Only on the first turn. */
  workspaceListing?: string
}

/** The `<environment_details>` block appended to each user turn: what changed that the model cannot see. */
export function buildEnvironmentDetails(input: EnvironmentInput): string {
  const parts = [`Time: ${input.now.toISOString()}`, `Mode: ${input.mode.slug} (${input.mode.name})`]
  if (input.todos.length > 0) parts.push(`Todo list:\n${formatTodos(input.todos)}`)
  if (input.terminal.trim()) parts.push(`Terminals:\n${input.terminal.trim()}`)
  if (input.workspaceListing !== undefined)
    parts.push(`Workspace files:\n${input.workspaceListing.trim() || '(empty)'}`)
  return `<environment_details>\n${parts.join('\n\n')}\n</environment_details>`
}
