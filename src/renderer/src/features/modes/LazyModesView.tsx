import { useEffect, useState, type ComponentType, type ReactNode } from 'react'

// The editor pulls in the mode schema, so it is its own chunk: fetched when the browser is idle a
// few seconds after start (never competing with the first paint), or on first show if sooner. No Suspense here on purpose: React
// throttles Suspense reveals by ~300 ms, which would make the view feel slow for a 20 kB chunk.
let loaded: ComponentType | null = null
let loading: Promise<ComponentType> | null = null

export function loadModesView(): Promise<ComponentType> {
  loading ??= import('./ModesView').then(
    (module) => (loaded = module.ModesView),
    (error: unknown) => {
      loading = null // a later attempt may succeed (the host came back, the app was rebuilt)
      throw error
    }
  )
  return loading
}

const PRELOAD_AFTER_MS = 3000
if (typeof window !== 'undefined' && 'requestIdleCallback' in window) {
  setTimeout(
    () => window.requestIdleCallback(() => void loadModesView().catch(() => {}), { timeout: 5000 }),
    PRELOAD_AFTER_MS
  )
}

export function LazyModesView(): ReactNode {
  const [View, setView] = useState<ComponentType | null>(() => loaded)
  const [error, setError] = useState<Error | null>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (View) return
    let live = true
    loadModesView().then(
      (component) => live && setView(() => component),
      (failure: Error) => live && setError(failure)
    )
    return () => {
      live = false
    }
  }, [View, attempt])

  if (View) return <View />
  if (!error) return <p className="note">Loading modes…</p>
  // A chunk that fails to load must not take the whole app down: say so and offer a retry.
  return (
    <div className="form-error" role="alert">
      <p>The mode editor could not be loaded: {error.message}</p>
      <button
        type="button"
        onClick={() => {
          setError(null)
          setAttempt((n) => n + 1)
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
