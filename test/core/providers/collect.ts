import type { ModelProvider, ModelRequest, ModelStreamEvent, ModelUsage } from '../../../src/main/core/providers/types'
import { ProviderError } from '../../../src/main/core/providers/errors'

/** What a consumer of `ModelProvider.stream` ends up with, including a thrown error. */
export interface Collected {
  events: ModelStreamEvent[]
  text: string
  reasoning: string
  signature: string
  toolCalls: Array<{ callId: string; name: string; input: unknown; rawArgs: string; parseError?: string }>
  startedCalls: Array<{ callId: string; name: string }>
  argsDeltas: Record<string, string>
  usage: ModelUsage | null
  done: Extract<ModelStreamEvent, { type: 'done' }> | null
  retries: Array<Extract<ModelStreamEvent, { type: 'retry' }>>
  error: ProviderError | null
}

export async function collect(
  stream: AsyncIterable<ModelStreamEvent>,
  onEvent?: (event: ModelStreamEvent, soFar: Collected) => void
): Promise<Collected> {
  const result: Collected = {
    events: [],
    text: '',
    reasoning: '',
    signature: '',
    toolCalls: [],
    startedCalls: [],
    argsDeltas: {},
    usage: null,
    done: null,
    retries: [],
    error: null
  }
  try {
    for await (const event of stream) {
      result.events.push(event)
      if (event.type === 'text') result.text += event.text
      if (event.type === 'reasoning') result.reasoning += event.text
      if (event.type === 'reasoning-signature') result.signature = event.signature
      if (event.type === 'tool-call-start') result.startedCalls.push({ callId: event.callId, name: event.name })
      if (event.type === 'tool-call-delta')
        result.argsDeltas[event.callId] = (result.argsDeltas[event.callId] ?? '') + event.argsDelta
      if (event.type === 'tool-call') {
        const { type: _type, ...call } = event
        result.toolCalls.push(call)
      }
      if (event.type === 'usage') result.usage = event.usage
      if (event.type === 'done') result.done = event
      if (event.type === 'retry') result.retries.push(event)
      onEvent?.(event, result)
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    result.error = error
  }
  return result
}

export const userRequest = (model: string, text = 'Hello', extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model,
  system: 'You are a test.',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  tools: [],
  ...extra
})

export const run = (
  provider: ModelProvider,
  request: ModelRequest,
  signal: AbortSignal = new AbortController().signal,
  onEvent?: Parameters<typeof collect>[1]
) => collect(provider.stream(request, signal), onEvent)

/** Records retry waits instead of sleeping, so retry tests take no wall time. */
export function recordingSleep() {
  const waits: number[] = []
  return {
    waits,
    sleep: async (ms: number, signal: AbortSignal): Promise<void> => {
      waits.push(ms)
      if (signal.aborted) throw new ProviderError('cancelled', 'The request was cancelled.')
    }
  }
}
