import { cancelledError, ProviderError } from './errors'
import type { ModelStreamEvent } from './types'

export interface RetryOptions {
  /** Retries after the first attempt. Default 5. */
  maxRetries?: number
  /** First backoff step; doubles per attempt. Default 1,000 ms. */
  baseDelayMs?: number
  /** Cap for computed backoff (not for a server's retry-after). Default 30,000 ms. */
  maxDelayMs?: number
  /** A server asking to wait longer than this fails at once instead. Default 10 minutes. */
  maxRetryAfterMs?: number
  /** Injected for tests; must reject when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** Injected for tests; returns [0, 1). */
  random?: () => number
}

/** Resolves after `ms`, or rejects with a cancelled `ProviderError` as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelledError())
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(cancelledError())
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * A wait the user may end early ("Retry now" in the chat): `wake` resolves it at once; aborting
 * `signal` (Stop) still rejects it.
 */
export function wakeableWait(
  ms: number,
  signal: AbortSignal,
  sleep: (ms: number, signal: AbortSignal) => Promise<void> = abortableSleep
): { done: Promise<void>; wake: () => void } {
  let wake!: () => void
  const woken = new Promise<void>((resolve) => (wake = resolve))
  const slept = sleep(ms, signal)
  // Woken first, the sleep may still reject later on a cancel: nobody waits for it then.
  slept.catch(() => undefined)
  return { done: Promise.race([slept, woken]), wake }
}

/** Exponential backoff with jitter (half fixed, half random), or exactly what the server asked for. */
export function retryDelayMs(attempt: number, error: ProviderError, options: RetryOptions = {}): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs
  const base = options.baseDelayMs ?? 1_000
  const ceiling = Math.min(options.maxDelayMs ?? 30_000, base * 2 ** (attempt - 1))
  const random = options.random ?? Math.random
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/**
 * Runs `attempt` and retries retryable failures, yielding a `retry` event (for the UI's countdown)
 * before each wait. A failure after events were already yielded is NOT retried here — resending
 * would duplicate streamed text — it is thrown with `partial: true` and the loop decides.
 */
export async function* streamWithRetry(
  attempt: () => AsyncIterable<ModelStreamEvent>,
  signal: AbortSignal,
  classify: (error: unknown) => ProviderError,
  options: RetryOptions = {}
): AsyncGenerator<ModelStreamEvent> {
  const maxRetries = options.maxRetries ?? 5
  const sleep = options.sleep ?? abortableSleep
  for (let attemptNumber = 1; ; attemptNumber++) {
    let yielded = false
    try {
      for await (const event of attempt()) {
        yielded = true
        yield event
      }
      return
    } catch (thrown) {
      const error = signal.aborted ? cancelledError() : classify(thrown)
      if (yielded) throw error.asPartial()
      if (!error.retryable || attemptNumber > maxRetries) throw error
      const delayMs = retryDelayMs(attemptNumber, error, options)
      if (delayMs > (options.maxRetryAfterMs ?? 600_000)) throw error
      const wait = wakeableWait(delayMs, signal, sleep)
      yield {
        type: 'retry',
        attempt: attemptNumber,
        delayMs,
        reason: error.message,
        status: error.status,
        retryNow: wait.wake
      }
      await wait.done
    }
  }
}
