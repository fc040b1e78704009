import type { ReactNode } from 'react'
import { useApprovalsStore } from '../common/approvals/approvals-store'
import { LazyChangesetReview } from '../common/review/LazyChangesetReview'
import { WorktreesView } from '../features/worktrees/WorktreesView'

/** Isolated tasks, shown with the queue's items and reviewed in the diff review, composed here. */
export function WorktreesWithReview(): ReactNode {
  const approvals = useApprovalsStore((state) => state.items)
  return <WorktreesView approvals={approvals} Review={LazyChangesetReview} />
}
