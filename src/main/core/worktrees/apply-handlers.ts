import type { Handlers } from '../../../shared/contract'
import type { WorktreeTask } from '../../../shared/contract/worktrees'
import { createWorktreeApply } from './apply-service'

type ApplyHandlers = Pick<Handlers, 'worktree:changes' | 'worktree:apply'>

export interface ApplyHandlerDeps {
  /** The isolated tasks the worktree service keeps (folder, base commit, the repository they came from). */
  worktrees: { list(): Promise<WorktreeTask[]> }
}

/** The review of an isolated task's work and "Apply to my working tree" (into the repository it was made from). */
export function createWorktreeApplyHandlers(deps: ApplyHandlerDeps): ApplyHandlers {
  const service = createWorktreeApply({
    async locate(taskId) {
      const task = (await deps.worktrees.list()).find((entry) => entry.taskId === taskId || entry.id === taskId)
      if (!task) return null
      if (task.pruned) throw new Error(`The worktree was pruned; its work is on branch ${task.branch}: merge it.`)
      return { mainRoot: task.repoRoot, worktree: task.path, baseCommit: task.baseCommit }
    }
  })
  return {
    'worktree:changes': ({ taskId }) => service.changes(taskId),
    'worktree:apply': ({ taskId, changes }) => service.apply(taskId, changes)
  }
}
