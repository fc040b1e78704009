import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import { useChatStore } from '../../../src/renderer/src/common/chat/chat-store'

const start: AgentEvent = { type: 'assistant-start', at: 1, messageId: 'm', model: 'fake' }
const delta = (text: string): AgentEvent => ({ type: 'text-delta', messageId: 'm', text })
const stamped = (event: AgentEvent) => ({ event, replays: useChatStore.getState().replays.t ?? 0 })
const shownText = (): string => {
  const item = useChatStore.getState().views.t?.items.find((candidate) => candidate.kind === 'assistant')
  return item && item.kind === 'assistant' ? item.text : ''
}

describe('the replay seam (issue #28 item 12)', () => {
  it('drops live events that arrived before a replay which already holds them, keeps those after', () => {
    // Received while the page loaded, still waiting for a frame when the replay came in.
    const early = [stamped(start), stamped(delta('Step 5: ')), stamped(delta('checkin'))]
    useChatStore.getState().replay('t', [start, delta('Step 5: '), delta('checkin')])
    const late = [stamped(delta('g.'))]
    useChatStore.getState().applyLiveEvents('t', [...early, ...late])
    expect(shownText()).toBe('Step 5: checking.')
  })
})
