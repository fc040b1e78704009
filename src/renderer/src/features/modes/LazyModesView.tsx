import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react'

// The editor pulls in the mode schema; it loads when the view is first shown, not at start.
const loadModesView = (): Promise<{ default: ComponentType }> =>
  import('./ModesView').then((module) => ({ default: module.ModesView }))

/**
 * A chunk that fails to load (the app was rebuilt or updated underneath a running window, a
 * dropped connection to the web host) must not take the whole app down: say so and offer a retry.
 */
class ChunkBoundary extends Component<{ onRetry(): void; children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null }
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  render(): ReactNode {
    if (!this.state.error) return this.props.children
    return (
      <div className="form-error" role="alert">
        <p>The mode editor could not be loaded: {this.state.error.message}</p>
        <button
          type="button"
          onClick={() => {
            this.setState({ error: null })
            this.props.onRetry()
          }}
        >
          Try again
        </button>
        <button type="button" onClick={() => window.location.reload()}>
          Reload the app
        </button>
      </div>
    )
  }
}

export function LazyModesView(): ReactNode {
  // A new lazy component per attempt: React caches a rejected import otherwise.
  const [attempt, setAttempt] = useState(() => ({ View: lazy(loadModesView) }))
  return (
    <ChunkBoundary onRetry={() => setAttempt({ View: lazy(loadModesView) })}>
      <Suspense fallback={<p className="note">Loading modes…</p>}>
        <attempt.View />
      </Suspense>
    </ChunkBoundary>
  )
}
