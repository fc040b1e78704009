import type { TaskSummary } from '../../../../shared/contract/task'

const LIVE: ReadonlySet<TaskSummary['status']> = new Set(['running', 'waiting'])

/**
 * The task a freshly connected chat shows: the most recently active running (or waiting) top-level
 * task, else the most recent one; null when there is none. Subtasks open through their parent.
 */
export function taskToReopen(tasks: readonly TaskSummary[]): string | null {
  const topLevel = tasks.filter((task) => !task.parentId)
  const newestFirst = [...topLevel].sort((a, b) => b.updatedAt - a.updatedAt)
  return (newestFirst.find((task) => LIVE.has(task.status)) ?? newestFirst[0])?.id ?? null
}
