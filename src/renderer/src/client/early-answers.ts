import type { Result } from '../../../shared/result'
import { requestKey } from './first-screen-requests'

interface Early {
  result?: Result<unknown>
  waiting: Array<(result: Result<unknown>) => void>
}

/**
 * The answers to the requests the early connection sent, given to the app's requests that match
 * them (the first screen asks some twice). They stand for the core's state until something could
 * have changed it: an event from the core, or a request of the app's own (a user's action, or a read
 * the first screen did not foresee). After that every request goes to the core.
 */
export function createEarlyAnswers(sent: ReadonlyArray<{ id: number; channel: string; payload: unknown }>) {
  const byId = new Map<number, Early>(sent.map((request) => [request.id, { waiting: [] }]))
  const byKey = new Map(sent.map((request) => [requestKey(request.channel, request.payload), byId.get(request.id)!]))

  return {
    /** Whether this id was an early request (its answer is kept here, not handed to a caller). */
    answer(id: number, result: Result<unknown>): boolean {
      const early = byId.get(id)
      if (!early) return false
      byId.delete(id)
      early.result = result
      for (const resolve of early.waiting.splice(0)) resolve(structuredClone(result))
      return true
    },
    /** The early answer for this request (each caller gets its own copy), or `null`: ask the core. */
    take(channel: string, payload: unknown): Promise<Result<unknown>> | null {
      const early = byKey.get(requestKey(channel, payload))
      if (!early) return null
      if (early.result) return Promise.resolve(structuredClone(early.result))
      return new Promise((resolve) => early.waiting.push(resolve))
    },
    /** Nothing more is given from here; answers still coming reach those already waiting. */
    dropAll(): void {
      byKey.clear()
    },
    /** The socket dropped: those waiting fail like any request in flight. */
    close(failure: Result<unknown>): void {
      for (const early of byId.values()) for (const resolve of early.waiting.splice(0)) resolve(failure)
      byId.clear()
      byKey.clear()
    }
  }
}
