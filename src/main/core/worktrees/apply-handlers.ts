import type { Handlers } from '../../../shared/contract'
import type { TaskSummary } from '../../../shared/contract/task'
import { locateWorktree } from './apply-locate'
import { createWorktreeApply } from './apply-service'

type ApplyHandlers = Pick<Handlers, 'worktree:changes' | 'worktree:apply'>

export interface ApplyHandlerDeps {
  tasks: { list(): TaskSummary[] }
  /** The open workspace (the user's working tree), or null. */
  mainRoot(): string | null
}

/** The review of an isolated task's work and "Apply to my working tree". */
export function createWorktreeApplyHandlers(deps: ApplyHandlerDeps): ApplyHandlers {
  const service = createWorktreeApply({
    async locate(taskId) {
      const task = deps.tasks.list().find((summary) => summary.id === taskId)
      const mainRoot = deps.mainRoot()
      if (!task?.workspace || !mainRoot) return null
      return locateWorktree(mainRoot, task.workspace)
    }
  })
  return {
    'worktree:changes': ({ taskId }) => service.changes(taskId),
    'worktree:apply': ({ taskId, changes }) => service.apply(taskId, changes)
  }
}
