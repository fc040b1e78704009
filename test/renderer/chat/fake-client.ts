import type { Channel, EventName, ModusClient, RequestInput, RequestOutput } from '../../../src/shared/contract'
import { createEventFanout } from '../../../src/shared/contract/client-events'
import type { Result } from '../../../src/shared/result'

type Handler = (input: any) => unknown

/**
 * An in-memory ModusClient: records every request, answers from handlers, emits events on demand
 * (parsed with the contract like the real clients; an invalid one fails the test that sent it).
 */
export function createFakeClient(handlers: Partial<Record<Channel, Handler>> = {}) {
  const calls: Array<{ channel: Channel; input: unknown }> = []
  const fanout = createEventFanout((problem) => {
    throw new Error(problem)
  })
  const client: ModusClient = {
    async request<C extends Channel>(channel: C, input: RequestInput<C>): Promise<Result<RequestOutput<C>>> {
      calls.push({ channel, input })
      const handler = handlers[channel]
      if (!handler) return { ok: false, error: { code: 'unavailable', message: `${channel} not handled` } }
      try {
        return { ok: true, value: (await handler(input)) as RequestOutput<C> }
      } catch (error) {
        return { ok: false, error: { code: 'failed', message: (error as Error).message } }
      }
    },
    subscribe: fanout.subscribe
  }
  return {
    client,
    calls,
    emit(name: EventName, payload: unknown) {
      fanout.deliver(name, payload)
    },
    callsTo(channel: Channel) {
      return calls.filter((call) => call.channel === channel).map((call) => call.input as any)
    }
  }
}
