import { describe, expect, it } from 'vitest'
import type { Handlers } from '../../src/shared/contract'
import { dispatch } from '../../src/shared/contract/dispatch'

// A handler gets what the schema made of the payload, never the raw payload: defaults filled in,
// strings trimmed, an omitted payload an empty object.
describe('dispatch hands the handler the parsed payload', () => {
  const received: unknown[] = []
  const handlers = {
    'approvals:decide': async (input: unknown) => void received.push(input),
    'settings:saveCommandRules': async (input: unknown) => void received.push(input),
    'settings:get': async (input: unknown) => void received.push(input)
  } as unknown as Handlers

  it('applies the schema default (an approval decided without a scope covers that call only)', async () => {
    received.length = 0
    expect(await dispatch(handlers, 'approvals:decide', { approvalId: 'a1', outcome: 'approve' })).toMatchObject({
      ok: true
    })
    expect(received).toEqual([{ approvalId: 'a1', outcome: 'approve', scope: 'call' }])
  })

  it('passes trimmed rules, and an empty object for an omitted payload', async () => {
    received.length = 0
    await dispatch(handlers, 'settings:saveCommandRules', { allow: ['  npm test  '], ask: [], deny: [' git push '] })
    await dispatch(handlers, 'settings:get', undefined)
    expect(received).toEqual([{ allow: ['npm test'], ask: [], deny: ['git push'] }, {}])
  })
})
