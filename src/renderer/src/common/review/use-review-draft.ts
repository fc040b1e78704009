import { useMemo, useState } from 'react'
import type { ChangeView } from '../../../../shared/contract/approvals'
import { initialReview, type ChangesetReview } from './review-model'
import { reviewFor, useReviewStore } from './review-store'

type Update = (review: ChangesetReview) => ChangesetReview

/**
 * The review of a waiting approval lives in the review slice, so it is the same wherever it is shown
 * and survives a remount or a reload; a read-only look at past changes keeps its own.
 */
export function useReviewDraft(
  approvalId: string | undefined,
  changes: readonly ChangeView[]
): [ChangesetReview, (update: Update) => void] {
  const [local, setLocal] = useState(() => initialReview(changes))
  const draft = useReviewStore((state) => (approvalId ? state.drafts[approvalId] : undefined))
  const saved = useReviewStore((state) => (approvalId ? state.saved[approvalId] : undefined))
  const kept = useMemo(() => approvalId && reviewFor(draft, saved, changes), [approvalId, draft, saved, changes])
  if (!approvalId || !kept) return [local, setLocal]
  return [kept, (update) => useReviewStore.getState().updateDraft(approvalId, changes, update)]
}
