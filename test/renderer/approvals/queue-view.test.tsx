// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalItem } from '../../../src/shared/contract/approvals'
import { ApprovalQueueView } from '../../../src/renderer/src/features/approvals/ApprovalQueueView'
import { routeEvents } from '../../../src/renderer/src/client/event-router'
import { useApprovalsStore } from '../../../src/renderer/src/common/approvals/approvals-store'
import { createFakeClient } from '../chat/fake-client'
import { button, click, mount, press, settle, typeInto } from '../chat/dom'
import { decide } from '../../../src/shared/policy/decide'
import { browserActionTool } from '../../../src/shared/tools/browser-action'

const item = (id: string, extra: Partial<ApprovalItem> = {}): ApprovalItem => ({
  id,
  taskId: 't1',
  taskTitle: 'Fix the tests',
  kind: 'tool',
  mode: 'code',
  callId: `call-${id}`,
  messageId: 'm1',
  tool: 'execute_command',
  args: { command: `npm run ${id}`, cwd: 'packages/app' },
  summary: `Run npm run ${id}`,
  rule: 'auto-approve-off',
  reason: 'commands are not auto-approved in Code mode',
  createdAt: Number(id.replace(/\D/g, '')),
  ...extra
})

let cleanup: (() => void) | null = null
beforeEach(() => {
  useApprovalsStore.setState({ items: [], selectedId: null })
  document.title = 'Modus'
})
afterEach(() => {
  cleanup?.()
  cleanup = null
})

async function showQueue(items: ApprovalItem[]) {
  const fake = createFakeClient({ 'approvals:decide': () => ({ resolved: true }) })
  useApprovalsStore.getState().setItems(items)
  const view = await mount(<ApprovalQueueView />, fake.client)
  cleanup = view.unmount
  const queue = view.container.querySelector('[aria-label="Approvals"]')!
  return { fake, view, queue }
}

const selectedCard = (root: ParentNode) => root.querySelector('.approval-card[aria-current="true"]')!

describe('ApprovalQueueView', () => {
  it('lists each item with its tool, key arguments, mode and why it was asked', async () => {
    const { view } = await showQueue([item('a1'), item('a2', { taskId: 't2', taskTitle: 'Other task', mode: 'debug' })])
    const cards = view.container.querySelectorAll('.approval-card')
    expect(cards).toHaveLength(2)
    const title = cards[0].querySelector('.tool-title')!
    expect(title.textContent).toBe('Run npm run a1')
    expect(title.getAttribute('title')).toBe('Tool: execute_command')
    expect(cards[0].textContent).not.toContain('execute_command')
    expect(cards[0].textContent).toContain('npm run a1')
    expect(cards[0].textContent).toContain('packages/app')
    expect(cards[0].textContent).toContain('code mode')
    const why = cards[0].querySelector('.approval-why')!
    expect(why.textContent).toBe('Why you were asked: Commands are not auto-approved in Code mode')
    expect(why.getAttribute('title')).toBe('Policy rule: auto-approve-off')
    expect(cards[1].textContent).toContain('debug mode')
    expect([...view.container.querySelectorAll('h2')].map((h) => h.textContent)).toEqual([
      'Fix the tests',
      'Other task'
    ])
  })

  it("titles an edit in the chat card's words, the raw tool name only on hover", async () => {
    const edit = item('e1', {
      kind: 'edit',
      tool: 'write_to_file',
      args: { path: 'src/values.ts', content: 'export const a = 1\n' },
      summary: 'Write src/values.ts'
    })
    const { view } = await showQueue([edit])
    const card = selectedCard(view.container)
    const title = card.querySelector('.tool-title')!
    expect(title.textContent).toBe('Write src/values.ts')
    expect(title.querySelector('code')!.textContent).toBe('src/values.ts')
    expect(title.getAttribute('title')).toBe('Tool: write_to_file')
    expect(card.querySelector('.approval-card-head')!.textContent).not.toContain('write_to_file')
    expect(card.querySelector('.approval-card-head')!.textContent).not.toContain('File edit')
  })

  it('shows the page and origin a browser launch would open, and why the policy asked about that origin', async () => {
    const args = { action: 'launch', url: 'https://example.com/login?next=/account' }
    const mode = {
      slug: 'code',
      name: 'Code',
      roleDefinition: 'r',
      groups: ['browser' as const],
      origin: 'builtin' as const,
      overridesBuiltIn: false,
      autoApprove: { browser: true }
    }
    const verdict = decide(
      { name: 'browser_action', params: browserActionTool.params.parse(args) },
      { mode, trusted: true, workspaceRoot: '/work/project' }
    )
    expect(verdict.decision).toBe('ask')
    const launch = item('b1', {
      tool: 'browser_action',
      args,
      summary: browserActionTool.summarize(browserActionTool.params.parse(args)),
      rule: verdict.rule,
      reason: verdict.reason
    })
    const { view } = await showQueue([launch])
    const card = view.container.querySelector('.approval-card')!
    const page = card.querySelector('[aria-label="Page to open"]')!
    const fields = [...page.querySelectorAll('div')].map((row) => [
      row.querySelector('dt')!.textContent,
      row.querySelector('dd')!.textContent
    ])
    expect(fields).toEqual([
      ['Page', 'https://example.com/login?next=/account'],
      ['Origin', 'https://example.com']
    ])
    // The URL is not repeated among the other arguments.
    expect([...card.querySelectorAll('.approval-args dt')].filter((dt) => dt.textContent === 'url')).toHaveLength(0)
    expect(card.querySelector('.approval-why')!.textContent).toContain('the origin https://example.com')
  })

  it('moves with j/k and approves the selected item with a', async () => {
    const { fake, queue } = await showQueue([item('a1'), item('a2'), item('a3')])
    expect(selectedCard(queue).textContent).toContain('npm run a1')
    await press(queue, 'j')
    await press(queue, 'j')
    await press(queue, 'k')
    expect(selectedCard(queue).textContent).toContain('npm run a2')
    await press(queue, 'a')
    await settle()
    expect(fake.callsTo('approvals:decide')).toEqual([{ approvalId: 'a2', outcome: 'approve', scope: 'call' }])
    // The next item down is selected after the decided one leaves.
    expect(selectedCard(queue).textContent).toContain('npm run a3')
  })

  it('rejects with a reason from r, and answers the whole turn with A', async () => {
    const { fake, queue } = await showQueue([item('a1'), item('a2', { messageId: 'm2' })])
    await press(queue, 'r')
    const reason = queue.querySelector<HTMLTextAreaElement>('.reject-form textarea')!
    expect(document.activeElement).toBe(reason)
    await typeInto(reason, 'use pnpm instead')
    // Shortcuts are off while typing.
    await press(reason, 'a')
    await press(reason, 'Enter')
    await settle()
    expect(fake.callsTo('approvals:decide')).toEqual([
      { approvalId: 'a1', outcome: 'reject', scope: 'call', reason: 'use pnpm instead' }
    ])
    await press(queue, 'A')
    await settle()
    expect(fake.callsTo('approvals:decide')[1]).toEqual({ approvalId: 'a2', outcome: 'approve', scope: 'turn' })
  })

  it('shows the proposed rule before saving "always allow in this mode"', async () => {
    const { fake, queue } = await showQueue([
      item('a1', { suggestedRule: { rule: { allow: 'npm run a1' }, label: 'Allow command "npm run a1" in Code mode' } })
    ])
    await click(button(queue, 'Always allow in this mode…'))
    expect(queue.querySelector('.proposed-rule')?.textContent).toBe('Allow command "npm run a1" in Code mode')
    expect(fake.callsTo('approvals:decide')).toEqual([])
    await click(button(queue, 'Save rule and approve'))
    expect(fake.callsTo('approvals:decide')).toEqual([
      { approvalId: 'a1', outcome: 'approve', scope: 'call', alwaysAllow: { allow: 'npm run a1' } }
    ])
  })

  it('keeps the window title and the queue in step with the core', async () => {
    const fake = createFakeClient()
    const unbind = routeEvents(fake.client)
    fake.emit('approvals:changed', [item('a1'), item('a2')])
    expect(document.title).toBe('(2) Modus')
    expect(useApprovalsStore.getState().items.map((i) => i.id)).toEqual(['a1', 'a2'])
    fake.emit('approvals:changed', [])
    expect(document.title).toBe('Modus')
    unbind()
  })
})

describe('a paused loop in the queue', () => {
  it('asks to continue or stop, and continuing approves the item', async () => {
    const { fake, queue } = await showQueue([
      item('a1', {
        kind: 'cost-limit',
        tool: undefined,
        args: undefined,
        callId: undefined,
        messageId: undefined,
        summary: 'Spent $2.00 of $2.00',
        rule: 'costCap',
        reason: 'The task reached its cost cap'
      })
    ])
    expect(queue.textContent).toContain('Cost limit reached')
    expect(queue.textContent).toContain('Why you were asked: The task reached its cost cap')
    // Not a tool call of a turn: no turn-wide answer, no approve/reject wording.
    expect(() => button(queue, 'Approve whole turn')).toThrow()
    expect(() => button(queue, 'Approve')).toThrow()
    button(queue, 'Stop the task')
    await click(button(queue, 'Continue'))
    expect(fake.callsTo('approvals:decide')).toEqual([{ approvalId: 'a1', outcome: 'approve', scope: 'call' }])
  })

  it('takes guidance at the mistake limit and sends it with Continue', async () => {
    const { fake, queue } = await showQueue([
      item('a1', {
        kind: 'mistake-limit',
        tool: undefined,
        args: undefined,
        callId: undefined,
        messageId: undefined,
        summary: 'The model made 3 mistakes in a row',
        rule: 'mistake-limit',
        reason: 'Give it guidance or stop here.'
      })
    ])
    const field = queue.querySelector('textarea') as HTMLTextAreaElement
    expect(field.closest('label')!.textContent).toContain('Guidance for the model')
    await typeInto(field, 'read the file before editing it')
    await click(button(queue, 'Continue'))
    expect(fake.callsTo('approvals:decide')).toEqual([
      { approvalId: 'a1', outcome: 'approve', scope: 'call', reason: 'read the file before editing it' }
    ])
  })
})
