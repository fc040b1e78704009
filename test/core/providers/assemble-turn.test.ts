import { afterEach, describe, expect, it } from 'vitest'
import { createTurnAssembler } from '../../../src/main/core/providers/assemble-turn'
import { createProvider } from '../../../src/main/core/providers/create-provider'
import { startFakeProvider, type FakeProvider } from '../../support/fake-provider'
import { userRequest } from './collect'

let fake: FakeProvider | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

describe('turn assembler', () => {
  it('builds the assistant message from a real stream, signature included, ready to send back', async () => {
    fake = await startFakeProvider({
      name: 'assemble',
      turns: [
        { reasoning: 'Plan: read a.', text: 'Reading a.', toolCalls: [{ name: 'read_file', input: { path: 'a' } }] },
        (request) => ({ text: JSON.stringify(request.body.messages[1].content.map((b: any) => b.type)) })
      ]
    })
    const provider = createProvider({
      kind: 'anthropic',
      baseUrl: fake.anthropicBaseUrl,
      apiKey: 'k',
      model: 'claude-sonnet-4-6'
    })
    const assembler = createTurnAssembler()
    for await (const event of provider.stream(
      userRequest('claude-sonnet-4-6', 'go', { reasoningBudgetTokens: 1024 }),
      new AbortController().signal
    ))
      assembler.push(event)
    const turn = assembler.result()
    expect(turn.content).toEqual([
      { type: 'reasoning', text: 'Plan: read a.', signature: expect.any(String) },
      { type: 'text', text: 'Reading a.' },
      { type: 'tool_use', id: 'toolu_fake_0_0', name: 'read_file', input: { path: 'a' } }
    ])
    expect(turn.stopReason).toBe('tool_use')
    expect(turn.usage).not.toBeNull()

    const next = createTurnAssembler()
    const messages = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] },
      { role: 'assistant' as const, content: turn.content },
      {
        role: 'user' as const,
        content: [
          {
            type: 'tool_result' as const,
            toolUseId: 'toolu_fake_0_0',
            content: [{ type: 'text' as const, text: 'A' }],
            isError: false
          }
        ]
      }
    ]
    for await (const event of provider.stream(
      { ...userRequest('claude-sonnet-4-6'), messages },
      new AbortController().signal
    ))
      next.push(event)
    expect(next.result().content).toEqual([{ type: 'text', text: '["thinking","text","tool_use"]' }])
  })

  it('keeps the partial text of a cancelled turn', async () => {
    fake = await startFakeProvider({
      name: 'assemble cancel',
      turns: [{ text: ['a ', 'b ', 'c'], hangAfterChunks: 2 }]
    })
    const provider = createProvider({ kind: 'openai', baseUrl: fake.openaiBaseUrl, apiKey: 'k', model: 'gpt-4o' })
    const assembler = createTurnAssembler()
    const controller = new AbortController()
    const error = await (async () => {
      for await (const event of provider.stream(userRequest('gpt-4o'), controller.signal)) {
        assembler.push(event)
        if (
          assembler.result().content[0]?.type === 'text' &&
          (assembler.result().content[0] as { text: string }).text === 'a b '
        )
          controller.abort()
      }
    })().catch((e) => e)
    expect(error).toMatchObject({ kind: 'cancelled', partial: true })
    expect(assembler.result()).toMatchObject({ content: [{ type: 'text', text: 'a b ' }], stopReason: null })
  })
})
