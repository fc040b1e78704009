import { lazy, Suspense, type ReactNode } from 'react'
import type { ChangesetReviewProps } from './ChangesetReview'

// The review (Monaco, the diff library) loads the first time a diff is shown, not with the app.
const ChangesetReview = lazy(() => import('./ChangesetReview'))

export function LazyChangesetReview(props: ChangesetReviewProps): ReactNode {
  return (
    <Suspense fallback={<p className="note">Loading the review…</p>}>
      <ChangesetReview {...props} />
    </Suspense>
  )
}
