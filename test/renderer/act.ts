import { act as preactAct } from 'preact/test-utils'

/**
 * `act` as the renderer tests knew it from React's: given an async callback, React's act waits a
 * macrotask after it before its last flush, so the promises the callback started (a client's reply,
 * then the store and state it sets) settle inside it. Preact's flushes at once; this adds the wait.
 * A synchronous callback is flushed synchronously, as both do.
 */
export function act(work: () => Promise<unknown>): Promise<void>
export function act(work: () => void): void
export function act(work: () => unknown): Promise<void> | void {
  let result: unknown
  const done = preactAct(() => {
    result = work()
    if (!(result instanceof Promise)) return
    return result.then(() => new Promise((resolve) => setTimeout(resolve, 0)))
  })
  return result instanceof Promise ? done : undefined
}
