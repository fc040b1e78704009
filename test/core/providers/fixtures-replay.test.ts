import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProvider } from '../../../src/main/core/providers/create-provider'
import { startFakeProvider, type FakeProvider } from '../../support/fake-provider'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../../support/shared-dir'
import { recordingSleep, run, userRequest } from './collect'

// Every recorded fixture in ../shared/fixtures/llm, replayed through the real SDKs via Modus's providers.
interface Fixture {
  name: string
  provider: 'anthropic' | 'openai'
  kind: 'stream' | 'stream_error' | 'http_error'
  status: number
  request: { model: string }
  expect: any
}

const fixtures: Fixture[] = sharedPresent
  ? readSharedJson<{ fixtures: Fixture[] }>('fixtures/llm/manifest.json').fixtures
  : []
const EXPECTED_KINDS: Record<number, string> = {
  400: 'bad_request',
  401: 'auth',
  429: 'rate_limit',
  500: 'server',
  529: 'overloaded'
}
const ANTHROPIC_STOP: Record<string, string> = { end_turn: 'end_turn', tool_use: 'tool_use', max_tokens: 'max_tokens' }
const OPENAI_STOP: Record<string, string> = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' }

let fake: FakeProvider
beforeAll(async () => {
  fake = await startFakeProvider({ name: 'fixtures replay' })
})
afterAll(() => fake?.close())

function providerFor(fixture: Fixture) {
  const retry = { ...recordingSleep(), maxRetries: 0 }
  return fixture.provider === 'anthropic'
    ? createProvider(
        { kind: 'anthropic', baseUrl: fake.anthropicBaseUrl, apiKey: 'test', model: fixture.request.model },
        { retry }
      )
    : createProvider(
        { kind: 'openai', baseUrl: fake.openaiBaseUrl, apiKey: 'test', model: fixture.request.model },
        { retry }
      )
}

type Delivery = 'whole' | 'split'
// `split` sends 7-byte pieces: lines, events and multi-byte characters are cut, as TCP may do.
async function replay(fixture: Fixture, delivery: Delivery) {
  fake.enqueue(delivery === 'whole' ? { fixture: fixture.name } : { fixture: fixture.name, splitBytes: 7 })
  const before = fake.requests.length
  const result = await run(providerFor(fixture), userRequest(fixture.request.model))
  expect(fake.requests.length - before).toBe(1)
  return result
}

type Result = Awaited<ReturnType<typeof run>>

function checkAnthropicStream(result: Result, expected: any) {
  expect(result.error).toBeNull()
  expect(result.text).toBe(expected.text)
  expect(result.reasoning).toBe(expected.thinking ?? '')
  expect(result.signature).toBe(expected.signature ?? '')
  const toolUses = expected.content.filter((block: any) => block.type === 'tool_use')
  expect(result.toolCalls.map(({ callId, name, input }) => ({ id: callId, name, input }))).toEqual(
    toolUses.map(({ id, name, input }: any) => ({ id, name, input }))
  )
  for (const use of expected.tool_uses ?? []) expect(result.argsDeltas[use.id]).toBe(use.partial_json_chunks.join(''))
  expect(result.usage).toEqual({
    inputTokens: expected.usage.input_tokens,
    outputTokens: expected.usage.output_tokens,
    cacheReadTokens: expected.usage.cache_read_input_tokens,
    cacheWriteTokens: expected.usage.cache_creation_input_tokens
  })
  expect(result.done).toEqual({
    type: 'done',
    stopReason: ANTHROPIC_STOP[expected.stop_reason],
    rawStopReason: expected.stop_reason
  })
}

function checkOpenAIStream(result: Result, expected: any) {
  expect(result.error).toBeNull()
  expect(result.text).toBe(expected.content ?? '')
  expect(result.toolCalls).toEqual(
    expected.tool_calls.map((call: any) => ({
      callId: call.id,
      name: call.name,
      rawArgs: call.arguments,
      input: call.arguments_parsed
    }))
  )
  expect(result.startedCalls.map((c) => c.name)).toEqual(expected.tool_calls.map((call: any) => call.name))
  // Streamed argument deltas land on the right call even when fragments of parallel calls interleave.
  for (const call of expected.tool_calls) expect(result.argsDeltas[call.id]).toBe(call.arguments)
  if (expected.usage === null) expect(result.usage).toBeNull()
  else
    expect(result.usage).toEqual({
      inputTokens: expected.usage.prompt_tokens - expected.usage.prompt_tokens_details.cached_tokens,
      outputTokens: expected.usage.completion_tokens,
      cacheReadTokens: expected.usage.prompt_tokens_details.cached_tokens,
      cacheWriteTokens: 0
    })
  expect(result.done).toEqual({
    type: 'done',
    stopReason: OPENAI_STOP[expected.finish_reason],
    rawStopReason: expected.finish_reason
  })
}

function checkHttpError(result: Result, fixture: Fixture) {
  const expected = fixture.expect.error
  expect(result.text).toBe('')
  expect(result.error).not.toBeNull()
  expect(result.error!.kind).toBe(EXPECTED_KINDS[fixture.status])
  expect(result.error!.status).toBe(expected.status)
  expect(result.error!.requestId).toBe(expected.request_id)
  expect(result.error!.providerType).toBe(expected.code ?? expected.type)
  expect(result.error!.retryable).toBe(expected.retried_by_sdk_default)
  if (expected.retry_after_seconds !== undefined)
    expect(result.error!.retryAfterMs).toBe(expected.retry_after_seconds * 1000)
  if (fixture.status === 401) expect(result.error!.setting).toBe('apiKey')
}

describe.skipIf(!sharedPresent)(sharedSuiteName('providers: every recorded fixture through the real SDKs'), () => {
  const counts = { stream: 0, stream_error: 0, http_error: 0 }
  afterAll(() => {
    if (sharedPresent)
      console.log(
        `fixtures replayed through providers, whole and split: ${fixtures.length} (streams ${counts.stream}, mid-stream errors ${counts.stream_error}, HTTP errors ${counts.http_error})`
      )
  })

  it('the manifest lists fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(19)
  })

  const cases = fixtures.flatMap((fixture) => (['whole', 'split'] as const).map((delivery) => ({ fixture, delivery })))
  for (const { fixture, delivery } of cases) {
    it(`${fixture.name} (${fixture.kind}, HTTP ${fixture.status}, ${delivery})`, async () => {
      const result = await replay(fixture, delivery)
      if (delivery === 'whole') counts[fixture.kind]++
      if (fixture.kind === 'http_error') return checkHttpError(result, fixture)
      if (fixture.kind === 'stream_error') {
        const expected = fixture.expect
        expect(result.text).toBe(expected.text_before_error)
        expect(result.error).toMatchObject({
          kind: 'overloaded',
          partial: true,
          retryable: true,
          providerType: expected.error.type,
          requestId: expected.request_id
        })
        expect(result.done).toBeNull()
        return
      }
      if (fixture.provider === 'anthropic') checkAnthropicStream(result, fixture.expect)
      else checkOpenAIStream(result, fixture.expect)
    })
  }
})
