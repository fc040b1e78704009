import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, toolResultsIn, type FakeProvider } from '../../support/fake-provider'
import { sharedPresent, sharedSuiteName } from '../../support/shared-dir'

// The fake server itself, driven by the bare SDKs (no Modus code in between).
let fake: FakeProvider | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const anthropicClient = (f: FakeProvider) =>
  new Anthropic({ apiKey: 'test-key', baseURL: f.anthropicBaseUrl, maxRetries: 0 })
const openaiClient = (f: FakeProvider) => new OpenAI({ apiKey: 'test-key', baseURL: f.openaiBaseUrl, maxRetries: 0 })

describe('fake provider: scripted turns over both protocols', () => {
  it('renders reasoning, text and two tool calls for the Anthropic SDK', async () => {
    fake = await startFakeProvider({
      name: 'anthropic scripted',
      turns: [
        {
          reasoning: 'think first',
          text: 'Reading both files.',
          toolCalls: [
            { name: 'read_file', input: { path: 'a.ts' } },
            { name: 'read_file', input: { path: 'b.ts' } }
          ],
          usage: { inputTokens: 50, outputTokens: 20, cacheReadTokens: 7 }
        }
      ]
    })
    const message = await anthropicClient(fake)
      .messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage()
    expect(message.content).toEqual(
      [
        { type: 'thinking', thinking: 'think first', signature: expect.any(String) },
        { type: 'text', text: 'Reading both files.', citations: null },
        { type: 'tool_use', id: 'toolu_fake_0_0', name: 'read_file', input: { path: 'a.ts' }, caller: undefined },
        { type: 'tool_use', id: 'toolu_fake_0_1', name: 'read_file', input: { path: 'b.ts' }, caller: undefined }
      ].map((b) =>
        expect.objectContaining(Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined && v !== null)))
      )
    )
    expect(message.stop_reason).toBe('tool_use')
    expect(message.usage).toMatchObject({ input_tokens: 50, output_tokens: 20, cache_read_input_tokens: 7 })
    expect(fake.requests[0]).toMatchObject({ protocol: 'anthropic', path: '/v1/messages', aborted: false })
    expect(fake.requests[0].headers.authorization).toBe('Bearer test-key')
  })

  it('renders the same script for the OpenAI SDK, with usage only when asked', async () => {
    const turn = {
      text: 'Two calls.',
      toolCalls: [
        { name: 'read_file', input: { path: 'a.ts' } },
        { name: 'list_files', input: { path: '.' } }
      ]
    }
    fake = await startFakeProvider({ name: 'openai scripted', turns: [turn, turn] })
    const client = openaiClient(fake)
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }]
    })
    let text = ''
    const args: string[] = []
    let finish: string | null = null
    let usage: unknown = null
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage
      const choice = chunk.choices[0]
      if (!choice) continue
      text += choice.delta.content ?? ''
      for (const call of choice.delta.tool_calls ?? [])
        args[call.index] = (args[call.index] ?? '') + (call.function?.arguments ?? '')
      finish = choice.finish_reason ?? finish
    }
    expect(text).toBe('Two calls.')
    expect(args.map((a) => JSON.parse(a))).toEqual([{ path: 'a.ts' }, { path: '.' }])
    expect(finish).toBe('tool_calls')
    expect(usage).toMatchObject({ completion_tokens: expect.any(Number) })

    const second = await client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }]
    })
    for await (const chunk of second) expect(chunk).not.toHaveProperty('usage')
  })

  it('answers scripted HTTP errors with the status, type and retry-after header', async () => {
    fake = await startFakeProvider({
      name: 'http error',
      turns: [{ error: { status: 429, retryAfter: 3 } }, { error: { status: 429, retryAfterMs: 250 } }]
    })
    const anthropicError = await anthropicClient(fake)
      .messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }], stream: true })
      .catch((e) => e)
    expect(anthropicError).toBeInstanceOf(Anthropic.RateLimitError)
    expect(anthropicError.headers.get('retry-after')).toBe('3')
    const openaiError = await openaiClient(fake)
      .chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e)
    expect(openaiError).toBeInstanceOf(OpenAI.RateLimitError)
    expect(openaiError.headers.get('retry-after-ms')).toBe('250')
  })

  it('fails mid-stream after the given number of chunks', async () => {
    fake = await startFakeProvider({
      name: 'mid-stream',
      turns: [{ text: ['one ', 'two ', 'three'], errorMidStream: { afterChunks: 2 } }]
    })
    const seen: string[] = []
    const run = async () => {
      const stream = await anthropicClient(fake!).messages.create({
        model: 'm',
        max_tokens: 9,
        messages: [{ role: 'user', content: 'x' }],
        stream: true
      })
      for await (const event of stream)
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') seen.push(event.delta.text)
    }
    const error = await run().catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.APIError)
    expect(error.type).toBe('overloaded_error')
    expect(seen).toEqual(['one ', 'two '])
  })

  it('hangs after N chunks until the client aborts, and records the abort', async () => {
    fake = await startFakeProvider({ name: 'hang', turns: [{ text: ['a', 'b', 'c'], hangAfterChunks: 1 }] })
    const controller = new AbortController()
    const seen: string[] = []
    const run = async () => {
      const stream = await openaiClient(fake!).chat.completions.create(
        { model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] },
        { signal: controller.signal }
      )
      for await (const chunk of stream) {
        const piece = chunk.choices[0]?.delta.content
        if (piece) {
          seen.push(piece)
          controller.abort()
        }
      }
    }
    // openai 7 ends the iteration quietly on abort (Anthropic's SDK throws): either is fine here.
    await run().catch(() => undefined)
    expect(seen).toEqual(['a'])
    await expect.poll(() => fake!.requests[0].aborted).toBe(true)
  })

  it('passes the request to turn functions and reports an exhausted script naming the test', async () => {
    fake = await startFakeProvider({ name: 'my exhausted test' })
    fake.enqueue((request) => ({
      text: `got ${toolResultsIn(request)
        .map((r) => `${r.toolUseId}:${r.text}:${r.isError}`)
        .join(',')}`
    }))
    const client = anthropicClient(fake)
    const message = await client.messages
      .stream({
        model: 'm',
        max_tokens: 9,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'nope', is_error: true }] }
        ]
      })
      .finalMessage()
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'got t1:nope:true' })
    const error = await client.messages
      .create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e)
    expect(error.status).toBe(500)
    expect(error.message).toContain('my exhausted test')
    expect(fake.failures).toHaveLength(1)
  })
})

describe.skipIf(!sharedPresent)(sharedSuiteName('fake provider: fixture replay'), () => {
  it('serves a fixture with its manifest status and headers', async () => {
    fake = await startFakeProvider({
      name: 'fixture',
      turns: [{ fixture: 'anthropic/error_429_rate_limit' }, { fixture: 'openai/text_plain', chunkDelayMs: 1 }]
    })
    const error = await anthropicClient(fake)
      .messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e)
    expect(error.status).toBe(429)
    expect(error.requestID).toBe('req_011CVqDEz9Hq5Wm2Tx8Kb4Nv')
    const stream = await openaiClient(fake).chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'x' }]
    })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe('Hello! How can I help you today?')
  })

  it('refuses a fixture sent to the other protocol with a clear 500', async () => {
    fake = await startFakeProvider({ name: 'wrong protocol', turns: [{ fixture: 'anthropic/text_plain' }] })
    const error = await openaiClient(fake)
      .chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e)
    expect(error.status).toBe(500)
    expect(error.message).toContain('fixture anthropic/text_plain is anthropic')
  })
})
