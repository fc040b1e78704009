import { lazy, Suspense, type ReactNode } from 'react'

// The editor pulls in the mode schema; it loads when the view is first shown, not at start.
const ModesView = lazy(() => import('./ModesView').then((module) => ({ default: module.ModesView })))

export function LazyModesView(): ReactNode {
  return (
    <Suspense fallback={<p className="note">Loading modes…</p>}>
      <ModesView />
    </Suspense>
  )
}
