import type { Handlers } from '../../../shared/contract'
import { createWorktreeApply } from './apply-service'
import { proposeForWorktree, type ProposalDeps } from './propose-commands'

type ApplyHandlers = Pick<Handlers, 'worktree:changes' | 'worktree:apply' | 'worktree:propose'>

/** The isolated tasks the worktree service keeps (folder, base commit, repository), the task start and the PATH. */
export type ApplyHandlerDeps = ProposalDeps

/**
 * The review of an isolated task's work, "Apply to my working tree" (into the repository it was made
 * from), and "Merge branch" / "Open a PR" proposed as commands through the policy.
 */
export function createWorktreeApplyHandlers(deps: ApplyHandlerDeps): ApplyHandlers {
  const service = createWorktreeApply({
    async locate(taskId) {
      const task = (await deps.worktrees.list()).find((entry) => entry.taskId === taskId || entry.id === taskId)
      if (!task) return null
      if (task.pruned) throw new Error(`The worktree was pruned; its work is on branch ${task.branch}: merge it.`)
      return {
        mainRoot: task.repoRoot,
        worktree: task.path,
        baseCommit: task.baseCommit,
        leftOut: deps.worktrees.placeholdersIn(task.path)
      }
    }
  })
  return {
    'worktree:changes': ({ taskId }) => service.changes(taskId),
    'worktree:apply': ({ taskId, changes }) => service.apply(taskId, changes),
    'worktree:propose': ({ taskId, action }) => proposeForWorktree(deps, taskId, action)
  }
}
