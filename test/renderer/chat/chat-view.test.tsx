// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import type { ApprovalItem } from '../../../src/shared/contract/approvals'
import type { TaskSummary } from '../../../src/shared/contract/task'
import { ChatView } from '../../../src/renderer/src/features/chat/ChatView'
import { useChatStore } from '../../../src/renderer/src/common/chat/chat-store'
import { useApprovalsStore } from '../../../src/renderer/src/common/approvals/approvals-store'
import { createFakeClient } from './fake-client'
import { button, click, mount, settle, typeInto } from './dom'

const at = 1
const task = (extra: Partial<TaskSummary> = {}): TaskSummary => ({
  id: 't1',
  title: 'Fix the bug',
  mode: 'code',
  status: 'running',
  createdAt: 0,
  updatedAt: 0,
  ...extra
})

function showTask(events: AgentEvent[], summary = task()): void {
  useChatStore.setState({
    activeTaskId: summary.id,
    tasks: { [summary.id]: summary },
    composerMode: null,
    accepted: {}
  })
  useChatStore.getState().replay(summary.id, events)
}

const modesView = {
  modes: [
    { slug: 'code', name: 'Code' },
    { slug: 'reviewer', name: 'Reviewer' }
  ],
  defaultSlug: 'code',
  problems: [],
  warnings: [],
  files: { global: '/g' }
}

let cleanup: (() => void) | null = null
beforeEach(() => {
  useChatStore.setState({ activeTaskId: null, tasks: {}, views: {}, accepted: {}, composerMode: null })
  useApprovalsStore.setState({ items: [], selectedId: null })
})
afterEach(() => {
  cleanup?.()
  cleanup = null
})

describe('ChatView', () => {
  it('renders a 5,000-message task with only a window of rows in the DOM', async () => {
    const events: AgentEvent[] = [{ type: 'status', at, status: 'completed' }]
    for (let i = 0; i < 2500; i++) {
      events.push({ type: 'user-message', at, text: `question ${i}` })
      events.push({ type: 'assistant-start', at, messageId: `m${i}`, model: 'x' })
      events.push({ type: 'text-delta', messageId: `m${i}`, text: `answer **${i}**` })
      events.push({ type: 'assistant-end', at, messageId: `m${i}`, stopReason: 'end_turn' })
    }
    showTask(events, task({ status: 'completed' }))
    const fake = createFakeClient({ 'modes:list': () => modesView })
    const view = await mount(<ChatView />, fake.client)
    cleanup = view.unmount
    const rows = view.container.querySelectorAll('.virtual-row')
    expect(useChatStore.getState().views.t1.items).toHaveLength(5000)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThan(80)
    // It follows the output: the newest answer is among the rendered rows.
    expect(view.container.textContent).toContain('answer 2499')
  })

  it('shows model Markdown as elements and never injects its HTML or unsafe links', async () => {
    showTask([
      { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
      {
        type: 'text-delta',
        messageId: 'm1',
        text: 'Run `npm test`:\n\n```sh\nnpm test\n```\n<img src=x onerror="alert(1)"> [bad](javascript:alert(1)) [good](https://example.com)'
      }
    ])
    const view = await mount(<ChatView />, createFakeClient().client)
    cleanup = view.unmount
    const text = view.container.querySelector('.assistant-text')!
    expect(text.querySelector('img')).toBeNull()
    expect(text.textContent).toContain('<img src=x onerror="alert(1)">')
    expect([...text.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['https://example.com'])
    expect(text.querySelector('pre code')?.textContent).toBe('npm test')
    expect(text.querySelector(':not(pre) > code')?.textContent).toBe('npm test')
  })

  it('shows tool cards with decision and result, the todo list, meters and the retry countdown', async () => {
    showTask([
      { type: 'status', at, status: 'running' },
      { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'read_file', args: { path: 'src/a.ts' } },
      { type: 'tool-decision', at, callId: 'c1', decision: 'allow', rule: 'read toggle', reason: 'reads are free' },
      { type: 'tool-result', at, callId: 'c1', isError: false, text: 'line one\nline two' },
      {
        type: 'todos',
        at,
        items: [
          { text: 'Read the code', status: 'completed' },
          { text: 'Fix it', status: 'in_progress' }
        ]
      },
      {
        type: 'usage',
        at,
        usage: {
          inputTokens: 1200,
          outputTokens: 300,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.0123,
          contextTokens: 50000,
          contextWindow: 200000
        }
      },
      { type: 'retry', at: Date.now(), attempt: 2, delayMs: 60_000, reason: 'rate limited (429)' }
    ])
    const view = await mount(<ChatView />, createFakeClient().client)
    cleanup = view.unmount
    const card = view.container.querySelector('[aria-label="Tool call read_file"]')!
    expect(card.textContent).toContain('src/a.ts')
    expect(card.querySelector('.tool-decision')?.textContent).toBe('Auto-approved: Reads are free.')
    expect(card.querySelector('.tool-decision')?.getAttribute('title')).toBe('Policy rule: read toggle')
    expect(card.querySelector('.tool-result-text')?.textContent).toBe('line one\nline two')
    expect(view.container.querySelector('[aria-label="Todo list"]')?.textContent).toContain('Fix it')
    expect(view.container.textContent).toContain('$0.0123')
    expect(view.container.querySelector('[role="meter"]')?.getAttribute('aria-valuenow')).toBe('50000')
    // The retry is a row of the chat (issue #28 item 10), no longer a line of the task bar.
    expect(view.container.querySelector('.retry-row .retry')?.textContent).toMatch(
      /Request failed, retrying in (59|60) s \(attempt 2\)/
    )
    expect(view.container.querySelector('.retry-row .retry-reason')?.textContent).toBe('rate limited (429)')
  })

  it('shows a browser action’s screenshot (click to enlarge), URL and console on its card', async () => {
    const text = [
      'Clicked at 100,50.',
      'Current URL: http://127.0.0.1:5173/app',
      'Viewport: 900x600',
      'Console since the previous action:\n[log] button clicked\n[warn] slow render',
      'Page errors since the previous action:\nlate failure'
    ].join('\n')
    showTask([
      { type: 'status', at, status: 'running' },
      { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
      {
        type: 'tool-call',
        at,
        messageId: 'm1',
        callId: 'c1',
        name: 'browser_action',
        args: { action: 'click', coordinate: { x: 100, y: 50 } }
      },
      {
        type: 'tool-decision',
        at,
        callId: 'c1',
        decision: 'allow',
        rule: 'browser-session',
        reason: 'Acts on the page already opened in this task'
      },
      {
        type: 'tool-result',
        at,
        callId: 'c1',
        isError: false,
        text,
        images: [{ mediaType: 'image/png', dataBase64: 'iVBORw0KGgo=' }]
      }
    ])
    const view = await mount(<ChatView />, createFakeClient().client)
    cleanup = view.unmount
    const card = view.container.querySelector('[aria-label="Tool call browser_action"]')!
    const shown = card.querySelector('.browser-result')!
    expect(shown.closest('details')).toBeNull() // visible without opening the result
    expect(shown.querySelector('.browser-url')?.textContent).toBe('URL http://127.0.0.1:5173/app')
    expect(shown.querySelector('[aria-label="Console output"]')?.textContent).toBe(
      '[log] button clicked\n[warn] slow render\n[page error] late failure'
    )
    expect(shown.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=')

    await click(button(card, 'Enlarge the screenshot'))
    const dialog = document.body.querySelector('[role="dialog"][aria-label="Screenshot"]')!
    expect(dialog.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=')
    await click(button(dialog, 'Close'))
    expect(document.body.querySelector('[role="dialog"][aria-label="Screenshot"]')).toBeNull()
  })

  it('approves a waiting call from its card', async () => {
    showTask([
      { type: 'status', at, status: 'waiting' },
      { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'execute_command', args: { command: 'npm test' } },
      {
        type: 'approval-requested',
        at,
        approvalId: 'ap1',
        callId: 'c1',
        kind: 'tool',
        summary: 'Run npm test',
        rule: 'command toggle',
        reason: 'off in code mode'
      }
    ])
    const item: ApprovalItem = {
      id: 'ap1',
      taskId: 't1',
      taskTitle: 'Fix',
      kind: 'tool',
      mode: 'code',
      callId: 'c1',
      tool: 'execute_command',
      args: { command: 'npm test' },
      summary: 'Run npm test',
      rule: 'command toggle',
      reason: 'off in code mode',
      createdAt: 0
    }
    useApprovalsStore.getState().setItems([item])
    const fake = createFakeClient({ 'approvals:decide': () => ({ resolved: true }) })
    const view = await mount(<ChatView />, fake.client)
    cleanup = view.unmount
    const decision = view.container.querySelector('.tool-decision')!
    expect(decision.textContent).toBe('Waiting for your approval: Off in code mode.')
    expect(decision.getAttribute('title')).toBe('Policy rule: command toggle')
    await click(button(view.container, 'Approve'))
    expect(fake.callsTo('approvals:decide')).toEqual([{ approvalId: 'ap1', outcome: 'approve', scope: 'call' }])
    expect(useApprovalsStore.getState().items).toEqual([])
  })

  it('answers a follow-up with a suggestion, switching mode when it names one', async () => {
    showTask(
      [
        { type: 'status', at, status: 'idle' },
        {
          type: 'followup',
          at,
          callId: 'q',
          question: 'Plan first?',
          suggestions: [{ answer: 'Yes, plan it', mode: 'architect' }, { answer: 'Just do it' }]
        }
      ],
      task({ status: 'idle' })
    )
    const fake = createFakeClient({ 'task:send': () => task({ status: 'running' }) })
    const view = await mount(<ChatView />, fake.client)
    cleanup = view.unmount
    await click(button(view.container, 'Yes, plan it (switches to architect)'))
    expect(fake.callsTo('task:send')).toEqual([{ taskId: 't1', text: 'Yes, plan it', mode: 'architect' }])
  })

  it('starts a task in the mode picked from the modes the core lists, and cancels a running one', async () => {
    const fake = createFakeClient({
      'modes:list': () => modesView,
      'task:start': (input: { text: string; mode?: string }) => task({ mode: input.mode ?? 'code' }),
      'task:cancel': () => task({ status: 'cancelled' })
    })
    const view = await mount(<ChatView />, fake.client)
    cleanup = view.unmount
    await settle()
    // The mode picker is a menu button (issue #28): open it, check the modes it offers, pick one.
    await click(view.container.querySelector<HTMLButtonElement>('button[aria-haspopup="menu"]')!)
    const options = [...view.container.querySelectorAll<HTMLButtonElement>('[role="menu"] [role="menuitemradio"]')]
    expect(options).toHaveLength(2)
    expect(options[1].textContent).toMatch(/reviewer/i)
    await click(options[1])
    await typeInto(
      view.container.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')!,
      'Review my code'
    )
    await click(button(view.container, 'Send'))
    expect(fake.callsTo('task:start')).toEqual([{ text: 'Review my code', mode: 'reviewer' }])
    await click(button(view.container, 'Cancel'))
    expect(fake.callsTo('task:cancel')).toEqual([{ taskId: 't1' }])
  })

  it('a slash command sent before the command list has answered still runs as the command, not as text', async () => {
    let answerLists!: () => void
    const listsAnswered = new Promise<void>((resolve) => (answerLists = resolve))
    const fake = createFakeClient({
      'modes:list': () => modesView,
      // Every read of the list waits until the test lets it answer.
      'commands:list': async () => {
        await listsAnswered
        return { commands: [{ name: 'review', description: 'Review a file', source: 'project' }], skipped: [] }
      },
      'commands:expand': (input: { args: string }) => ({ text: `Review ${input.args} carefully.` }),
      'task:start': (input: { text: string }) => task({ title: input.text })
    })
    const view = await mount(<ChatView />, fake.client)
    cleanup = view.unmount
    await settle()
    await typeInto(
      view.container.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')!,
      '/review a.ts '
    )
    await click(button(view.container, 'Send'))
    expect(fake.callsTo('task:start')).toEqual([])
    answerLists()
    await settle()
    await settle()
    expect(fake.callsTo('commands:expand')).toEqual([{ name: 'review', args: 'a.ts' }])
    expect(fake.callsTo('task:start')).toEqual([{ text: 'Review a.ts carefully.', mode: 'code' }])
  })

  it('offers accept and answer on a completion until the user accepts', async () => {
    showTask(
      [
        { type: 'status', at, status: 'running' },
        { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
        {
          type: 'tool-call',
          at,
          messageId: 'm1',
          callId: 'c9',
          name: 'attempt_completion',
          args: { result: 'Fixed **the bug**.' }
        },
        { type: 'completion', at, result: 'Fixed **the bug**.' },
        { type: 'status', at, status: 'completed' }
      ],
      task({ status: 'completed' })
    )
    const view = await mount(<ChatView />, createFakeClient().client)
    cleanup = view.unmount
    // The result is shown once, as the completion, not also as an unfinished tool card.
    expect(view.container.querySelector('[aria-label="Tool call attempt_completion"]')).toBeNull()
    const result = view.container.querySelector('[aria-label="Task result"]')!
    expect(result.querySelector('strong')?.textContent).toBe('the bug')
    await click(button(result, 'Accept result'))
    expect(result.textContent).toContain('Accepted.')
  })
})
