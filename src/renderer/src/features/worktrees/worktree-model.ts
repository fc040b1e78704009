import type { ApprovalItem } from '../../../../shared/contract/approvals'
import type { ApplyOutcome } from '../../../../shared/contract/worktree-review'
import type { WorktreeTask } from '../../../../shared/contract/worktrees'

export type ShownState = WorktreeTask['state'] | 'waiting for approval'

/** What the list says of a task: "waiting for approval" while one of its items is in the queue. */
export const stateOf = (task: WorktreeTask, asking: ReadonlySet<string>): ShownState =>
  task.taskId && asking.has(task.taskId) ? 'waiting for approval' : task.state

/** Tasks waiting for the user first (an approval, then a question), then the newest. */
export function needsYouFirst(tasks: readonly WorktreeTask[], approvals: readonly ApprovalItem[]): WorktreeTask[] {
  const asking = new Set(approvals.map((item) => item.taskId))
  const rank = (task: WorktreeTask): number =>
    task.taskId && asking.has(task.taskId) ? 0 : task.state === 'waiting' ? 1 : 2
  return [...tasks].sort((a, b) => rank(a) - rank(b) || b.createdAt - a.createdAt)
}

/** The branch a task's approvals belong to, for the queue's heading (undefined: it runs in the open folder). */
export const branchOfTask = (tasks: readonly WorktreeTask[], taskId: string): string | undefined =>
  tasks.find((task) => task.taskId === taskId)?.branch

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

export const formatCost = (cost: number | null): string =>
  cost === null ? 'cost unknown' : `$${cost.toFixed(cost > 0 && cost < 0.01 ? 4 : 2)}`

export const formatBytes = (bytes: number): string =>
  bytes >= 1e9
    ? `${(bytes / 1e9).toFixed(1)} GB`
    : bytes >= 1e6
      ? `${(bytes / 1e6).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1e3)} kB`

/** The copy list as the text field shows it (one path a line) and back. */
export const linesToList = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
