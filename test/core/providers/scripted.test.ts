import { afterEach, describe, expect, it } from 'vitest'
import { createProvider, type ProviderConfig } from '../../../src/main/core/providers/create-provider'
import type { RetryOptions } from '../../../src/main/core/providers/retry'
import {
  startFakeProvider,
  toolResultsIn,
  type FakeProvider,
  type FakeTurn,
  type TurnResult
} from '../../support/fake-provider'
import { recordingSleep, run, userRequest } from './collect'

// One script drives both protocols through the real SDKs; no ../shared needed.
type Protocol = 'anthropic' | 'openai'
const PROTOCOLS: Protocol[] = ['anthropic', 'openai']
const MODEL: Record<Protocol, string> = { anthropic: 'claude-sonnet-4-6', openai: 'gpt-4o' }

let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

async function setup(
  protocol: Protocol,
  turns: FakeTurn[],
  retry: RetryOptions = {},
  extra: Partial<ProviderConfig> = {}
) {
  fake = await startFakeProvider({ name: expect.getState().currentTestName, turns })
  const sleeper = recordingSleep()
  const provider = createProvider(
    {
      kind: protocol,
      baseUrl: protocol === 'anthropic' ? fake.anthropicBaseUrl : fake.openaiBaseUrl,
      apiKey: 'test-key',
      model: MODEL[protocol],
      ...extra
    },
    { retry: { sleep: sleeper.sleep, random: () => 0.5, ...retry } }
  )
  return { fake, provider, waits: sleeper.waits }
}

const readTool = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }
}

describe.each(PROTOCOLS)('%s provider, scripted', (protocol) => {
  it('streams text in chunks and reports usage and the stop reason', async () => {
    const { provider } = await setup(protocol, [
      { text: 'Hello there, how are you?', usage: { inputTokens: 40, outputTokens: 7, cacheReadTokens: 12 } }
    ])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.error).toBeNull()
    expect(result.events.filter((e) => e.type === 'text').length).toBeGreaterThan(1)
    expect(result.text).toBe('Hello there, how are you?')
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 7, cacheReadTokens: 12, cacheWriteTokens: 0 })
    expect(result.done?.stopReason).toBe('end_turn')
  })

  it('assembles several tool calls of one message, in order, with their streamed arguments', async () => {
    const calls = [
      { name: 'read_file', input: { path: 'src/a.ts' } },
      { name: 'search_files', input: { path: '.', regex: 'TODO\\(\\w+\\)' } },
      { name: 'list_files', input: {} }
    ]
    const { provider } = await setup(protocol, [{ text: 'Looking.', toolCalls: calls }])
    const result = await run(provider, userRequest(MODEL[protocol], 'look', { tools: [readTool] }))
    expect(result.toolCalls.map(({ name, input }) => ({ name, input }))).toEqual(calls)
    expect(result.startedCalls.map((c) => c.name)).toEqual(calls.map((c) => c.name))
    for (const call of result.toolCalls) {
      expect(call.parseError).toBeUndefined()
      expect(result.argsDeltas[call.callId] ?? '').toBe(
        call.rawArgs === '{}' && protocol === 'anthropic' ? '{}' : call.rawArgs
      )
    }
    expect(new Set(result.toolCalls.map((c) => c.callId)).size).toBe(3)
    expect(result.done?.stopReason).toBe('tool_use')
  })

  it('streams reasoning before the answer', async () => {
    const { provider } = await setup(protocol, [{ reasoning: 'Let me think about it.', text: 'Done.' }])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.reasoning).toBe('Let me think about it.')
    expect(result.text).toBe('Done.')
    const firstReasoning = result.events.findIndex((e) => e.type === 'reasoning')
    const firstText = result.events.findIndex((e) => e.type === 'text')
    expect(firstReasoning).toBeLessThan(firstText)
    if (protocol === 'anthropic') expect(result.signature).not.toBe('')
  })

  it('waits out a 429 with retry-after, tells the UI, then succeeds', async () => {
    const { provider, fake, waits } = await setup(protocol, [
      { error: { status: 429, retryAfter: 1 } },
      { text: 'after the wait' }
    ])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.error).toBeNull()
    expect(result.text).toBe('after the wait')
    expect(result.retries).toEqual([
      {
        type: 'retry',
        attempt: 1,
        delayMs: 1000,
        reason: expect.stringContaining('rate limit'),
        status: 429,
        retryNow: expect.any(Function)
      }
    ])
    expect(waits).toEqual([1000])
    expect(fake.requests).toHaveLength(2)
    expect(result.events[0].type).toBe('retry')
  })

  it('prefers retry-after-ms and backs off exponentially with jitter when no header says how long', async () => {
    const status = protocol === 'anthropic' ? 529 : 503
    const { provider, waits } = await setup(protocol, [
      { error: { status: 429, retryAfterMs: 250, retryAfter: 9 } },
      { error: { status } },
      { error: { status } },
      { text: 'ok' }
    ])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.text).toBe('ok')
    // random() = 0.5 → ¾ of the step: 1000·2^(n-1) steps for attempts 2 and 3.
    expect(waits).toEqual([250, 1500, 3000])
    expect(result.retries.map((r) => r.attempt)).toEqual([1, 2, 3])
  })

  it('gives up after maxRetries with the last error', async () => {
    const { provider, fake } = await setup(protocol, [{ error: { status: 500 } }, { error: { status: 500 } }], {
      maxRetries: 1
    })
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.error).toMatchObject({ kind: 'server', status: 500, retryable: true })
    expect(result.retries).toHaveLength(1)
    expect(fake.requests).toHaveLength(2)
  })

  it('does not retry a 401 and says the API key is wrong', async () => {
    const { provider, fake } = await setup(protocol, [{ error: { status: 401 } }])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.error).toMatchObject({ kind: 'auth', status: 401, retryable: false, setting: 'apiKey' })
    expect(result.error!.message).toMatch(/API key/)
    expect(result.retries).toEqual([])
    expect(fake.requests).toHaveLength(1)
  })

  it('does not retry a 404 for an unknown model and names the model setting', async () => {
    const message =
      protocol === 'anthropic'
        ? 'model: claude-nope'
        : 'The model `gpt-nope` does not exist or you do not have access to it.'
    const { provider, fake } = await setup(protocol, [{ error: { status: 404, message } }])
    const result = await run(provider, userRequest('gpt-nope'))
    expect(result.error).toMatchObject({ kind: 'bad_request', setting: 'model', retryable: false })
    expect(result.error!.message).toContain('"gpt-nope"')
    expect(fake.requests).toHaveLength(1)
  })

  it('surfaces an error in the middle of the stream after content as a partial, retryable error', async () => {
    const { provider, fake } = await setup(protocol, [
      { text: ['The ', 'answer ', 'is ', '42'], errorMidStream: { afterChunks: 2 } }
    ])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.text).toBe('The answer ')
    expect(result.error).toMatchObject({ kind: 'overloaded', partial: true, retryable: true })
    expect(result.done).toBeNull()
    expect(fake.requests).toHaveLength(1)
  })

  it('a connection closed mid-answer (undici "terminated") is a partial, retryable network error naming the cut', async () => {
    const { provider, fake } = await setup(protocol, [{ text: ['The ', 'answer ', 'is ', '42'], cutAfterChunks: 2 }])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.text).toBe('The answer ')
    expect(result.error).toMatchObject({ kind: 'network', partial: true, retryable: true })
    expect(result.error!.message).toMatch(/connection .* was lost mid-answer/i)
    expect(result.done).toBeNull()
    expect(fake.requests).toHaveLength(1)
  })

  it('a connection closed before any content arrived is retried with backoff', async () => {
    const { provider, fake, waits } = await setup(protocol, [
      { text: 'lost', cutAfterChunks: 0 },
      { text: 'second try' }
    ])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.error).toBeNull()
    expect(result.text).toBe('second try')
    expect(result.retries).toEqual([
      expect.objectContaining({ attempt: 1, reason: expect.stringMatching(/connection .* was lost/i) })
    ])
    expect(waits).toHaveLength(1)
    expect(fake.requests).toHaveLength(2)
  })

  it('retries a stream that fails before any content arrived', async () => {
    const { provider, fake } = await setup(protocol, [
      { text: 'lost', errorMidStream: { afterChunks: 0 } },
      { text: 'second try' }
    ])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.text).toBe('second try')
    expect(result.retries).toHaveLength(1)
    expect(fake.requests).toHaveLength(2)
  })

  it('cancels mid-stream: the partial text stays with the caller and the connection is closed', async () => {
    const { provider, fake } = await setup(protocol, [{ text: ['one ', 'two ', 'three ', 'four'], hangAfterChunks: 2 }])
    const controller = new AbortController()
    const result = await run(provider, userRequest(MODEL[protocol]), controller.signal, (event, soFar) => {
      if (event.type === 'text' && soFar.text === 'one two ') controller.abort()
    })
    expect(result.text).toBe('one two ')
    expect(result.error).toMatchObject({ kind: 'cancelled', partial: true, retryable: false })
    await expect.poll(() => fake.requests[0].aborted).toBe(true)
  })

  it('drops a stream that goes silent mid-answer and keeps what arrived', async () => {
    const { provider } = await setup(
      protocol,
      [{ text: ['still ', 'here ', 'gone'], hangAfterChunks: 2 }],
      {},
      { idleTimeoutMs: 150 }
    )
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.text).toBe('still here ')
    expect(result.error).toMatchObject({ kind: 'network', partial: true, retryable: true })
    expect(result.error!.message).toMatch(/sent nothing/)
  })

  it('retries a stream that went silent before any content', async () => {
    const { provider, fake } = await setup(
      protocol,
      [{ text: 'never', hangAfterChunks: 0 }, { text: 'fresh' }],
      {},
      { idleTimeoutMs: 150 }
    )
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.text).toBe('fresh')
    expect(result.retries).toHaveLength(1)
    expect(fake.requests[0].aborted).toBe(true)
  })

  it('cancels before the response arrives, and with an already aborted signal sends nothing', async () => {
    let release: () => void = () => {}
    const { provider, fake } = await setup(protocol, [
      () => new Promise<TurnResult>((resolve) => (release = () => resolve({ text: 'too late' })))
    ])
    const controller = new AbortController()
    const pending = run(provider, userRequest(MODEL[protocol]), controller.signal)
    await expect.poll(() => fake.requests.length).toBe(1)
    controller.abort()
    const result = await pending
    expect(result.error).toMatchObject({ kind: 'cancelled', partial: false })
    expect(result.text).toBe('')
    release()

    const aborted = new AbortController()
    aborted.abort()
    const none = await run(provider, userRequest(MODEL[protocol]), aborted.signal)
    expect(none.error?.kind).toBe('cancelled')
    expect(fake.requests).toHaveLength(1)
  })

  it('cancels while waiting to retry', async () => {
    fake = await startFakeProvider({
      name: 'cancel during retry wait',
      turns: [{ error: { status: 429, retryAfter: 60 } }]
    })
    const provider = createProvider({
      kind: protocol,
      baseUrl: protocol === 'anthropic' ? fake.anthropicBaseUrl : fake.openaiBaseUrl,
      apiKey: 'k',
      model: MODEL[protocol]
    })
    const controller = new AbortController()
    const result = await run(provider, userRequest(MODEL[protocol]), controller.signal, (event) => {
      if (event.type === 'retry') controller.abort()
    })
    expect(result.retries).toEqual([expect.objectContaining({ delayMs: 60_000 })])
    expect(result.error?.kind).toBe('cancelled')
  })

  it('classifies a context-too-long rejection', async () => {
    const error =
      protocol === 'anthropic'
        ? { status: 400, message: 'prompt is too long: 208451 tokens > 200000 maximum' }
        : {
            status: 400,
            code: 'context_length_exceeded',
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens."
          }
    const { provider } = await setup(protocol, [{ error }])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.error).toMatchObject({ kind: 'context_too_long', retryable: false })
  })

  it('refuses a model the table marks as without tools, naming it, before any request', async () => {
    const { provider, fake } = await setup(protocol, [])
    const result = await run(provider, userRequest('o1-mini', 'x', { tools: [readTool] }))
    expect(result.error).toMatchObject({ kind: 'model_no_tools', setting: 'model' })
    expect(result.error!.message).toContain('"o1-mini"')
    expect(fake.requests).toHaveLength(0)
  })

  it('explains an unreachable base URL as a network error, without retrying a refused connection', async () => {
    const { provider, fake } = await setup(protocol, [])
    await fake.close()
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.error).toMatchObject({ kind: 'network', setting: 'baseUrl', retryable: false })
    expect(result.error!.message).toContain(fake.url)
    expect(result.error!.message).toContain('ECONNREFUSED')
    expect(result.retries).toEqual([])
  })

  it('retries a connection dropped before the answer started', async () => {
    const { provider, fake } = await setup(protocol, [{ dropConnection: true }, { text: 'after reset' }], {
      maxRetries: 1
    })
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.text).toBe('after reset')
    expect(result.retries).toEqual([
      expect.objectContaining({ attempt: 1, reason: expect.stringContaining('Could not reach') })
    ])
    expect(fake.requests).toHaveLength(2)
  })

  it('does not retry when the server says x-should-retry: false (exhausted script)', async () => {
    const { provider, fake } = await setup(protocol, [])
    const result = await run(provider, userRequest(MODEL[protocol]))
    expect(result.error).toMatchObject({ kind: 'server', retryable: false })
    expect(result.error!.message).toContain('script exhausted')
    expect(fake.requests).toHaveLength(1)
    fake.failures.length = 0 // expected here
  })

  it('lets a turn function see the tool results sent back', async () => {
    const seen: string[] = []
    fake = await startFakeProvider({
      name: 'tool results',
      turns: [
        { toolCalls: [{ name: 'read_file', input: { path: 'a' }, id: 'call_1' }] },
        (request) => {
          seen.push(...toolResultsIn(request).map((r) => `${r.toolUseId}=${r.text}`))
          return { text: 'thanks' }
        }
      ]
    })
    const provider = createProvider({
      kind: protocol,
      baseUrl: protocol === 'anthropic' ? fake.anthropicBaseUrl : fake.openaiBaseUrl,
      apiKey: 'k',
      model: MODEL[protocol]
    })
    const first = await run(provider, userRequest(MODEL[protocol], 'go', { tools: [readTool] }))
    const call = first.toolCalls[0]
    const second = await run(provider, {
      ...userRequest(MODEL[protocol], 'go', { tools: [readTool] }),
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: call.callId, name: call.name, input: call.input }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: call.callId, content: [{ type: 'text', text: 'file a' }], isError: false }
          ]
        }
      ]
    })
    expect(second.text).toBe('thanks')
    expect(seen).toEqual(['call_1=file a'])
  })
})

describe('OpenAI-compatible endpoints', () => {
  it('reads reasoning from `reasoning` as OpenRouter and Ollama send it, and needs no key', async () => {
    fake = await startFakeProvider({
      name: 'compatible',
      turns: [{ reasoning: 'hmm', text: 'ok', openaiReasoningField: 'reasoning' }]
    })
    const provider = createProvider({
      kind: 'openai-compatible',
      baseUrl: fake.url,
      apiKey: '',
      model: 'qwen3:8b',
      label: 'Ollama'
    })
    const result = await run(provider, userRequest('qwen3:8b'))
    expect(result).toMatchObject({ reasoning: 'hmm', text: 'ok', error: null })
    // A bare origin gets /v1, as Ollama / LM Studio / vLLM are usually written.
    expect(fake.requests[0].path).toBe('/v1/chat/completions')
  })

  it('sends max_tokens to compatible servers and max_completion_tokens to OpenAI', async () => {
    fake = await startFakeProvider({ name: 'max tokens field', turns: [{ text: 'a' }, { text: 'b' }] })
    const compatible = createProvider({
      kind: 'openai-compatible',
      baseUrl: fake.openaiBaseUrl,
      apiKey: '',
      model: 'm'
    })
    const openai = createProvider({ kind: 'openai', baseUrl: fake.openaiBaseUrl, apiKey: 'k', model: 'gpt-4o' })
    await run(compatible, userRequest('m', 'x', { maxOutputTokens: 100 }))
    await run(openai, userRequest('gpt-4o', 'x', { maxOutputTokens: 100 }))
    expect(fake.requests[0].body).toMatchObject({ max_tokens: 100, stream_options: { include_usage: true } })
    expect(fake.requests[1].body).toMatchObject({ max_completion_tokens: 100 })
    expect(fake.requests[1].body.max_tokens).toBeUndefined()
  })

  it('classifies a server-side "does not support tools" answer, naming the model', async () => {
    fake = await startFakeProvider({
      name: 'no tools',
      turns: [{ error: { status: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' } }]
    })
    const provider = createProvider({
      kind: 'openai-compatible',
      baseUrl: fake.openaiBaseUrl,
      apiKey: '',
      model: 'gemma:2b',
      label: 'Ollama'
    })
    const result = await run(provider, userRequest('gemma:2b', 'x', { tools: [readTool] }))
    expect(result.error).toMatchObject({ kind: 'model_no_tools', retryable: false, setting: 'model' })
    expect(result.error!.message).toContain('"gemma:2b"')
  })

  it('explains a wrong base URL (404 on the path) as a base URL problem', async () => {
    fake = await startFakeProvider({ name: 'wrong base url' })
    const provider = createProvider({ kind: 'openai-compatible', baseUrl: `${fake.url}/api`, apiKey: '', model: 'm' })
    const result = await run(provider, userRequest('m'))
    expect(result.error).toMatchObject({ kind: 'bad_request', setting: 'baseUrl', retryable: false })
    expect(result.error!.message).toMatch(/base URL/)
  })

  it('requires a base URL', () => {
    expect(() => createProvider({ kind: 'openai-compatible', apiKey: '', model: 'm' })).toThrow(/needs a base URL/)
  })
})

describe('missing settings fail before any request', () => {
  it('an empty Anthropic key names the key setting', async () => {
    fake = await startFakeProvider({ name: 'no key' })
    const provider = createProvider({
      kind: 'anthropic',
      baseUrl: fake.anthropicBaseUrl,
      apiKey: '',
      model: 'claude-sonnet-4-6'
    })
    const result = await run(provider, userRequest('claude-sonnet-4-6'))
    expect(result.error).toMatchObject({ kind: 'auth', setting: 'apiKey' })
    expect(fake.requests).toHaveLength(0)
  })

  it('the provider uses its configured model when the request leaves it empty', async () => {
    fake = await startFakeProvider({ name: 'default model', turns: [{ text: 'x' }] })
    const provider = createProvider({ kind: 'openai', baseUrl: fake.openaiBaseUrl, apiKey: 'k', model: 'gpt-4.1' })
    await run(provider, userRequest(''))
    expect(fake.requests[0].body.model).toBe('gpt-4.1')
  })
})
