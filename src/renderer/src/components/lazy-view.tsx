import { useEffect, useState, type ComponentType, type ReactNode } from 'react'

/** A view whose code is its own chunk: fetched on first show, or earlier by `preload`. */
export interface LazyView<Props extends object> {
  Component: (props: Props) => ReactNode
  preload: () => Promise<ComponentType<Props>>
}

/**
 * `load` is a dynamic `import()` of the view's module, so the bundler leaves it out of the first
 * chunk. No Suspense on purpose: React throttles Suspense reveals by ~300 ms, which would make every
 * first show of a small view feel slow. `what` names the view in the loading and error notes.
 */
export function lazyView<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  what: string
): LazyView<Props> {
  let loaded: ComponentType<Props> | null = null
  let loading: Promise<ComponentType<Props>> | null = null

  const preload = (): Promise<ComponentType<Props>> => {
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null // a later attempt may succeed (the host came back, the app was rebuilt)
        throw error
      }
    )
    return loading
  }

  function Component(props: Props): ReactNode {
    const [View, setView] = useState<ComponentType<Props> | null>(() => loaded)
    const [error, setError] = useState<Error | null>(null)
    const [attempt, setAttempt] = useState(0)

    useEffect(() => {
      if (View) return
      let live = true
      preload().then(
        (component) => live && setView(() => component),
        (failure: Error) => live && setError(failure)
      )
      return () => {
        live = false
      }
    }, [View, attempt])

    if (View) return <View {...props} />
    if (!error)
      return (
        <p className="note" aria-busy="true">
          Loading {what}…
        </p>
      )
    // A chunk that fails to load must not take the whole app down: say so and offer a retry.
    return (
      <div className="form-error" role="alert">
        <p>
          The {what} could not be loaded: {error.message}
        </p>
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
  return { Component, preload }
}

const PRELOAD_AFTER_MS = 3000

/**
 * Fetches the views' chunks when the browser is idle a few seconds after start, one per idle period,
 * so a first show is instant without competing with the first paint.
 */
export function preloadWhenIdle(views: Array<{ preload: () => Promise<unknown> }>): void {
  if (typeof window === 'undefined' || !('requestIdleCallback' in window)) return
  const next = (index: number): void => {
    if (index >= views.length) return
    window.requestIdleCallback(
      () =>
        void views[index]
          .preload()
          .catch(() => {})
          .finally(() => next(index + 1)),
      { timeout: 5000 }
    )
  }
  setTimeout(() => next(0), PRELOAD_AFTER_MS)
}
