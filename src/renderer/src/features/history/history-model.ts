import type { TaskSummary } from '../../../../shared/contract/task'

/** Statuses a task can be resumed from: the loop stopped without finishing. */
export const RESUMABLE: ReadonlySet<TaskSummary['status']> = new Set(['interrupted', 'failed'])

/**
 * Tasks matching every word of the query (title, mode, status or id): those waiting for the user
 * first, then newest activity first. Subtasks are listed too: they are tasks of their own.
 */
export function searchTasks(tasks: readonly TaskSummary[], query: string): TaskSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  return tasks
    .filter((task) => {
      const haystack =
        `${task.title}\n${task.mode}\n${task.status}\n${STATUS_WORDS[task.status]}\n${task.id}`.toLowerCase()
      return words.every((word) => haystack.includes(word))
    })
    .sort((a, b) => Number(b.status === 'waiting') - Number(a.status === 'waiting') || b.updatedAt - a.updatedAt)
}

export const formatCost = (cost: number | null | undefined): string =>
  cost === undefined
    ? ''
    : cost === null
      ? 'cost unknown'
      : `$${cost < 0.01 && cost > 0 ? cost.toFixed(4) : cost.toFixed(2)}`

export const formatWhen = (epochMs: number, now = Date.now()): string => {
  const date = new Date(epochMs)
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
  const sameDay = new Date(now).toDateString() === date.toDateString()
  const day = sameDay
    ? 'Today'
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
  return `${day}, ${time}`
}

/** A task's status in words (a task stopped at a limit is not idle: the user stopped it there). */
export const STATUS_WORDS: Record<TaskSummary['status'], string> = {
  running: 'running',
  waiting: 'waiting for you',
  idle: 'idle',
  stopped: 'stopped at a limit',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'stopped',
  interrupted: 'interrupted'
}
