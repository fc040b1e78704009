import type { ReactNode } from 'react'
import { ApprovalQueueView } from '../features/approvals/ApprovalQueueView'
import { branchOfTask } from '../features/worktrees/worktree-model'
import { useWorktreesStore } from '../features/worktrees/worktrees-store'

/** The queue names the worktree branch of each isolated task's items. */
export function QueueWithBranches(): ReactNode {
  const tasks = useWorktreesStore((state) => state.tasks)
  return <ApprovalQueueView branchOf={(taskId) => branchOfTask(tasks, taskId)} />
}
