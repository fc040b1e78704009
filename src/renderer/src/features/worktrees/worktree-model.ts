import type { ApprovalItem } from '../../../../shared/contract/approvals'
import type { TaskSummary } from '../../../../shared/contract/task'
import type { ApplyOutcome } from '../../../../shared/contract/worktree-review'

export type TaskState = 'running' | 'waiting for approval' | 'waiting' | 'done' | 'failed' | 'stopped'

/** A task runs isolated when its workspace is not the open folder (its own worktree). */
export const isIsolated = (task: TaskSummary, mainRoot: string | null): boolean =>
  Boolean(task.workspace && mainRoot && task.workspace !== mainRoot && !task.parentId)

/** What the list says of a task; "waiting for approval" when one of its items is in the queue. */
export function stateOf(task: TaskSummary, asking: ReadonlySet<string>): TaskState {
  if (asking.has(task.id)) return 'waiting for approval'
  if (task.status === 'completed') return 'done'
  if (task.status === 'failed') return 'failed'
  if (task.status === 'running') return 'running'
  if (task.status === 'waiting') return 'waiting'
  return 'stopped'
}

/** Tasks waiting for the user first (an approval, then a question), then the most recently active. */
export function needsYouFirst(tasks: readonly TaskSummary[], approvals: readonly ApprovalItem[]): TaskSummary[] {
  const asking = new Set(approvals.map((item) => item.taskId))
  const rank = (task: TaskSummary): number => (asking.has(task.id) ? 0 : task.status === 'waiting' ? 1 : 2)
  return [...tasks].sort((a, b) => rank(a) - rank(b) || b.updatedAt - a.updatedAt)
}

/** The task list's state after an event: a task's summary replaces the one it had. */
export const withTask = (tasks: Record<string, TaskSummary>, task: TaskSummary): Record<string, TaskSummary> => ({
  ...tasks,
  [task.id]: task
})

/** What an apply says to the user: what was written, and each conflict left as it was. */
export function outcomeLines(outcome: ApplyOutcome): string[] {
  const written = outcome.written.length === 0 ? ['Nothing was written.'] : [`Written: ${outcome.written.join(', ')}`]
  return [
    ...written,
    ...outcome.conflicts.map(
      (conflict) =>
        `Not written — ${conflict.path}${conflict.hunks.length ? ` (hunks ${conflict.hunks.join(', ')})` : ''}: ${conflict.reason}`
    )
  ]
}

export const formatCost = (cost: number | null | undefined): string =>
  cost === undefined ? '' : cost === null ? 'cost unknown' : `$${cost.toFixed(cost > 0 && cost < 0.01 ? 4 : 2)}`

/** The worktree's folder name, which is the task's branch slug (`modus/<slug>`). */
export const worktreeName = (task: TaskSummary): string => task.workspace?.split(/[\\/]/).filter(Boolean).pop() ?? ''
