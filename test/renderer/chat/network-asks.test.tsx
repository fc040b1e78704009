// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act } from '../act'
import type { AgentEvent } from '../../../src/shared/agent/events'
import type { ApprovalItem } from '../../../src/shared/contract/approvals'
import { ChatView } from '../../../src/renderer/src/features/chat/ChatView'
import { useChatStore } from '../../../src/renderer/src/common/chat/chat-store'
import { useApprovalsStore } from '../../../src/renderer/src/common/approvals/approvals-store'
import { createFakeClient } from './fake-client'
import { button, click, mount, settle } from './dom'

/**
 * A sandboxed command's network ask on its tool card: the queue's item, answered from the card
 * (the same decision the Approvals view sends), then the outcome the core records.
 */
const at = 1
const command = 'curl -fsS -m 8 https://example.com/'
const events: AgentEvent[] = [
  { type: 'status', at, status: 'running' },
  { type: 'user-message', at, text: 'fetch it' },
  { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
  { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'execute_command', args: { command } },
  { type: 'assistant-end', at, messageId: 'm1', stopReason: 'tool_use' },
  {
    type: 'tool-decision',
    at,
    callId: 'c1',
    decision: 'allow',
    rule: 'sandbox',
    reason: 'Runs in the sandbox of Code mode'
  },
  { type: 'tool-started', at, callId: 'c1' },
  { type: 'network-ask', at, approvalId: 'n1', callId: 'c1', host: 'example.com', port: 443, command }
]
const item: ApprovalItem = {
  id: 'n1',
  taskId: 't1',
  taskTitle: 'Fetch',
  kind: 'network',
  mode: 'code',
  callId: 'c1',
  tool: 'execute_command',
  args: { command, host: 'example.com', port: 443 },
  summary: `${command} wants example.com:443`,
  rule: 'sandbox.network-ask',
  reason: 'example.com is not on the sandbox allow list of Code mode',
  suggestedRule: {
    rule: { sandboxDomain: 'example.com', mode: 'code' },
    label: 'Always allow example.com for sandboxed commands in Code mode'
  },
  createdAt: 1
}
const modesView = {
  modes: [{ slug: 'code', name: 'Code' }],
  defaultSlug: 'code',
  problems: [],
  warnings: [],
  files: { global: '/g' }
}

let cleanup: (() => void) | null = null
beforeEach(() => {
  useChatStore.setState({
    activeTaskId: 't1',
    tasks: { t1: { id: 't1', title: 'Fetch', mode: 'code', status: 'running', createdAt: 0, updatedAt: 0 } },
    views: {},
    accepted: {},
    composerMode: null
  })
  useChatStore.getState().replay('t1', events)
  useApprovalsStore.setState({ items: [item], selectedId: null })
})
afterEach(() => {
  cleanup?.()
  cleanup = null
})

const askOf = (container: HTMLElement): HTMLElement => {
  const ask = container.querySelector<HTMLElement>('[aria-label="Network request to example.com:443"]')
  if (!ask) throw new Error('no network ask on the card')
  return ask
}

describe('a network ask on its tool card', () => {
  it('shows host, port and the three answers; allowed once here, the focus stays on the ask and its outcome is announced', async () => {
    const fake = createFakeClient({ 'modes:list': () => modesView, 'approvals:decide': () => ({ resolved: true }) })
    const view = await mount(<ChatView />, fake.client)
    cleanup = view.unmount
    const ask = askOf(view.container)
    expect(view.container.querySelector('.phase')?.textContent).toBe('waiting for approval')
    expect(ask.textContent).toContain('host example.com, port 443')
    for (const name of ['Allow once', 'Always in this mode…', 'Deny…']) button(ask, name)

    await click(button(ask, 'Allow once'))
    await settle()
    expect(fake.callsTo('approvals:decide')).toEqual([{ approvalId: 'n1', outcome: 'approve', scope: 'call' }])
    expect(useApprovalsStore.getState().items).toEqual([])
    expect(ask.querySelectorAll('button')).toHaveLength(0)
    expect(document.activeElement).toBe(askOf(view.container))

    await act(async () =>
      useChatStore.getState().applyEvent('t1', {
        type: 'network-ask-ended',
        at,
        approvalId: 'n1',
        outcome: 'allowed-once',
        text: 'You allowed example.com:443 for this run of curl.'
      })
    )
    const outcome = askOf(view.container).querySelector('[aria-live="polite"]')
    expect(outcome?.textContent).toBe('You allowed example.com:443 for this run of curl.')
    expect(view.container.querySelector('.phase')?.textContent).toBe('running')
  })

  it('answered in the queue instead, the card loses its buttons and says how it ended', async () => {
    const fake = createFakeClient({ 'modes:list': () => modesView })
    const view = await mount(<ChatView />, fake.client)
    cleanup = view.unmount
    await act(async () => {
      useApprovalsStore.getState().setItems([])
      useChatStore.getState().applyEvent('t1', {
        type: 'network-ask-ended',
        at,
        approvalId: 'n1',
        outcome: 'gave-up',
        text: 'curl gave up waiting for approval of example.com:443 after 8 s.'
      })
    })
    const ask = askOf(view.container)
    expect(ask.querySelectorAll('button')).toHaveLength(0)
    expect(ask.textContent).toContain('curl gave up waiting for approval of example.com:443 after 8 s.')
  })

  it('an ask left open in the log with no item in the queue (Modus stopped) offers no buttons and says it was not answered', async () => {
    useApprovalsStore.setState({ items: [], selectedId: null })
    const fake = createFakeClient({ 'modes:list': () => modesView })
    const view = await mount(<ChatView />, fake.client)
    cleanup = view.unmount
    const ask = askOf(view.container)
    expect(ask.querySelectorAll('button')).toHaveLength(0)
    expect(ask.querySelector('[aria-live="polite"]')?.textContent).toBe('Not answered: Modus stopped before an answer.')
  })
})
