import type { ReactNode } from 'react'
import type { TodoItem } from '../../common/chat/task-view'

const MARK: Record<TodoItem['status'], string> = { pending: '○', in_progress: '◐', completed: '●' }
const SPOKEN: Record<TodoItem['status'], string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' }

/** The task's checklist, as the model keeps it with update_todo_list. */
export function TodoList({ todos }: { todos: readonly TodoItem[] }): ReactNode {
  const done = todos.filter((todo) => todo.status === 'completed').length
  return (
    <aside className="todo-list" aria-label="Todo list">
      <h2>
        Todo{' '}
        <span className="note">
          {done}/{todos.length}
        </span>
      </h2>
      <ul>
        {todos.map((todo, n) => (
          <li key={n} className={`todo todo-${todo.status}`}>
            <span aria-hidden="true">{MARK[todo.status]}</span> <span className="sr-only">{SPOKEN[todo.status]}: </span>
            {todo.text}
          </li>
        ))}
      </ul>
    </aside>
  )
}
