import { ProviderError } from './errors'
import type { ModelStreamEvent } from './types'

/** Default for how long a started stream may stay silent before it counts as dropped. */
export const DEFAULT_IDLE_TIMEOUT_MS = 180_000

type Guard = <T>(source: AsyncIterable<T>) => AsyncIterable<T>

/**
 * Runs one request attempt with its own AbortController linked to the caller's signal, and drops a
 * stream that goes silent for `idleTimeoutMs` once it has started (a half-open connection would
 * otherwise hang the task until the SDK's 10-minute timeout). The wait for the first byte is left to
 * the SDK timeout: reasoning models may think for minutes before sending anything.
 */
export async function* withIdleGuard(
  outer: AbortSignal,
  idleTimeoutMs: number,
  providerLabel: string,
  attempt: (signal: AbortSignal, guard: Guard) => AsyncIterable<ModelStreamEvent>
): AsyncGenerator<ModelStreamEvent> {
  const controller = new AbortController()
  const forward = (): void => controller.abort()
  if (outer.aborted) controller.abort()
  outer.addEventListener('abort', forward, { once: true })
  let timer: ReturnType<typeof setTimeout> | undefined
  let idle = false

  const guard: Guard = (source) => ({
    async *[Symbol.asyncIterator]() {
      for await (const item of source) {
        clearTimeout(timer)
        timer = setTimeout(() => {
          idle = true
          controller.abort()
        }, idleTimeoutMs)
        yield item
      }
      clearTimeout(timer)
    }
  })

  try {
    yield* attempt(controller.signal, guard)
  } catch (error) {
    if (idle && !outer.aborted) {
      throw new ProviderError(
        'network',
        `${providerLabel} sent nothing for ${Math.round(idleTimeoutMs / 1000)} s in the middle of the answer; the connection was dropped.`,
        { cause: error }
      )
    }
    throw error
  } finally {
    clearTimeout(timer)
    outer.removeEventListener('abort', forward)
  }
}
