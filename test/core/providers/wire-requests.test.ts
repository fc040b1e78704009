import { afterEach, describe, expect, it } from 'vitest'
import type { ConversationMessage } from '../../../src/shared/agent/messages'
import { createProvider } from '../../../src/main/core/providers/create-provider'
import { startFakeProvider, systemPromptOf, toolNamesOf, type FakeProvider } from '../../support/fake-provider'
import { run } from './collect'

// What Modus puts on the wire for a conversation with tools, errors, images and reasoning.
let fake: FakeProvider | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const PNG = 'iVBORw0KGgo='
const conversation: ConversationMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Fix the bug' },
      { type: 'image', mediaType: 'image/png', dataBase64: PNG }
    ]
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Need to read it.', signature: 'sig-1' },
      { type: 'reasoning', text: 'unsigned thoughts from another provider' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool_use', id: 'call_b', name: 'read_file', input: { path: 'missing.ts' } }
    ]
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'also look at the screenshot' },
      {
        type: 'tool_result',
        toolUseId: 'call_a',
        content: [
          { type: 'text', text: 'const a = 1' },
          { type: 'image', mediaType: 'image/png', dataBase64: PNG }
        ],
        isError: false
      },
      {
        type: 'tool_result',
        toolUseId: 'call_b',
        content: [{ type: 'text', text: 'File not found: missing.ts' }],
        isError: true
      }
    ]
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Got it.' }] },
  { role: 'user', content: [{ type: 'text', text: 'Continue' }] }
]
const request = (model: string) => ({
  model,
  system: 'SYSTEM PROMPT',
  messages: conversation,
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } }
    }
  ],
  reasoningBudgetTokens: 2048
})

describe('Anthropic wire request', () => {
  it('caches the system prompt and the latest two user turns, and sends tools, thinking and max_tokens', async () => {
    fake = await startFakeProvider({ name: 'anthropic wire', turns: [{ text: 'ok' }] })
    await run(
      createProvider({ kind: 'anthropic', baseUrl: fake.anthropicBaseUrl, apiKey: 'k', model: 'claude-sonnet-4-6' }),
      request('claude-sonnet-4-6')
    )
    const body = fake.requests[0].body
    expect(body.system).toEqual([{ type: 'text', text: 'SYSTEM PROMPT', cache_control: { type: 'ephemeral' } }])
    expect(systemPromptOf(fake.requests[0])).toBe('SYSTEM PROMPT')
    expect(toolNamesOf(fake.requests[0])).toEqual(['read_file'])
    expect(body.tools[0].input_schema).toEqual(request('x').tools[0].inputSchema)
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 })
    expect(body.max_tokens).toBeGreaterThan(2048)
    expect(body.stream).toBe(true)
    const cached = body.messages.map((m: any) => m.content.filter((b: any) => b.cache_control).length)
    expect(cached).toEqual([0, 0, 1, 0, 1])
    // The marker sits on the last block of each cached turn.
    expect(body.messages[4].content.at(-1).cache_control).toEqual({ type: 'ephemeral' })
  })

  it('asks adaptive thinking of models that want it instead of a budget', async () => {
    fake = await startFakeProvider({ name: 'adaptive', turns: [{ text: 'ok' }] })
    await run(
      createProvider({ kind: 'anthropic', baseUrl: fake.anthropicBaseUrl, apiKey: 'k', model: 'claude-opus-4-6' }),
      request('claude-opus-4-6')
    )
    expect(fake.requests[0].body.thinking).toEqual({ type: 'adaptive' })
  })

  it('sends tool results first with is_error and images, and signed thinking back unchanged', async () => {
    fake = await startFakeProvider({ name: 'anthropic blocks', turns: [{ text: 'ok' }] })
    await run(
      createProvider({ kind: 'anthropic', baseUrl: fake.anthropicBaseUrl, apiKey: 'k', model: 'claude-sonnet-4-6' }),
      request('claude-sonnet-4-6')
    )
    const [first, assistant, results] = fake.requests[0].body.messages
    expect(first.content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } })
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'Need to read it.', signature: 'sig-1' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool_use', id: 'call_b', name: 'read_file', input: { path: 'missing.ts' } }
    ])
    expect(results.content.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result', 'text'])
    expect(results.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'call_a',
      is_error: false,
      content: [
        { type: 'text', text: 'const a = 1' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }
      ]
    })
    expect(results.content[1]).toMatchObject({
      tool_use_id: 'call_b',
      is_error: true,
      content: [{ type: 'text', text: 'File not found: missing.ts' }]
    })
  })
})

describe('OpenAI wire request', () => {
  it('sends tool results as tool messages right after the calls, errors marked, images after them', async () => {
    fake = await startFakeProvider({ name: 'openai wire', turns: [{ text: 'ok' }] })
    await run(
      createProvider({ kind: 'openai', baseUrl: fake.openaiBaseUrl, apiKey: 'k', model: 'gpt-4o' }),
      request('gpt-4o')
    )
    const body = fake.requests[0].body
    expect(body.stream_options).toEqual({ include_usage: true })
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'read_file', description: 'Read a file', parameters: request('x').tools[0].inputSchema }
      }
    ])
    const roles = body.messages.map((m: any) => m.role)
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user', 'assistant', 'user'])
    expect(body.messages[1].content).toEqual([
      { type: 'text', text: 'Fix the bug' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }
    ])
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: 'Reading.',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
        { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path":"missing.ts"}' } }
      ]
    })
    expect(body.messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_a' })
    expect(body.messages[3].content).toContain('const a = 1')
    expect(body.messages[4]).toEqual({
      role: 'tool',
      tool_call_id: 'call_b',
      content: 'Error: File not found: missing.ts'
    })
    expect(body.messages[5].content).toEqual([
      { type: 'text', text: 'also look at the screenshot' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }
    ])
    expect(JSON.stringify(body.messages)).not.toContain('Need to read it.')
  })
})
