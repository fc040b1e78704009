import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import {
  decisionLabel,
  emptyTaskView,
  reduceTaskEvent,
  reduceTaskEvents,
  toolPhase,
  type ToolItem
} from '../../../src/renderer/src/common/chat/task-view'

const at = 1000
const fold = (events: AgentEvent[]) => events.reduce(reduceTaskEvent, emptyTaskView())
const toolOf = (events: AgentEvent[], callId = 'c1') =>
  fold(events).items.find((item) => item.kind === 'tool' && item.id === callId) as ToolItem

const turnStart: AgentEvent[] = [
  { type: 'status', at, status: 'running' },
  { type: 'user-message', at, text: 'fix it' },
  { type: 'assistant-start', at, messageId: 'm1', model: 'x' }
]

describe('reduceTaskEvents', () => {
  it('streams text and reasoning into the assistant message they belong to', () => {
    const view = fold([
      ...turnStart,
      { type: 'reasoning-delta', messageId: 'm1', text: 'Let me ' },
      { type: 'reasoning-delta', messageId: 'm1', text: 'think.' },
      { type: 'text-delta', messageId: 'm1', text: 'Hello ' },
      { type: 'text-delta', messageId: 'm1', text: 'world' },
      { type: 'assistant-end', at, messageId: 'm1', stopReason: 'end_turn' }
    ])
    expect(view.items.map((item) => item.kind)).toEqual(['user', 'assistant'])
    expect(view.items[1]).toMatchObject({
      text: 'Hello world',
      reasoning: 'Let me think.',
      streaming: false,
      stopReason: 'end_turn'
    })
  })

  it('marks an answer that was cut off mid-stream, keeping the text that arrived', () => {
    const view = fold([
      ...turnStart,
      { type: 'text-delta', messageId: 'm1', text: 'Half an ans' },
      { type: 'assistant-end', at, messageId: 'm1', stopReason: 'error', cutOff: true }
    ])
    expect(view.items[1]).toMatchObject({ text: 'Half an ans', streaming: false, cutOff: true })
  })

  it('assembles streamed argument deltas; a view that missed the first ones waits for the whole call', () => {
    const deltas: AgentEvent[] = [
      { type: 'tool-call-partial', messageId: 'm1', callId: 'c1', name: 'read_file', argsDelta: '{"pa', argsOffset: 0 },
      {
        type: 'tool-call-partial',
        messageId: 'm1',
        callId: 'c1',
        name: 'read_file',
        argsDelta: 'th": "a',
        argsOffset: 4
      }
    ]
    expect(toolOf([...turnStart, ...deltas])).toMatchObject({ argsText: '{"path": "a' })
    // A tab that connected after the first delta cannot place the second: it shows no partial text rather than a wrong one.
    expect(toolOf([...turnStart, deltas[1]])).toMatchObject({ argsText: '' })
  })

  it('folds a batch to the same view as one event at a time, without touching the input', () => {
    const events: AgentEvent[] = [
      ...turnStart,
      { type: 'text-delta', messageId: 'm1', text: 'a' },
      { type: 'tool-call-partial', messageId: 'm1', callId: 'c1', name: 'read_file', argsDelta: '{"pa', argsOffset: 0 },
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'read_file', args: { path: 'a.ts' } },
      {
        type: 'usage',
        at,
        usage: {
          inputTokens: 10,
          outputTokens: 5,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.01,
          contextTokens: 15,
          contextWindow: 100
        }
      }
    ]
    const start = emptyTaskView()
    const batched = reduceTaskEvents(start, events)
    expect(batched).toEqual(fold(events))
    expect(start.items).toEqual([])
  })

  it('follows a tool call from streamed arguments through approval to its result', () => {
    const base: AgentEvent[] = [
      ...turnStart,
      {
        type: 'tool-call-partial',
        messageId: 'm1',
        callId: 'c1',
        name: 'execute_command',
        argsDelta: '{"comm',
        argsOffset: 0
      }
    ]
    expect(toolPhase(toolOf(base), 'running')).toBe('streaming')
    const called: AgentEvent[] = [
      ...base,
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'execute_command', args: { command: 'npm test' } },
      {
        type: 'tool-decision',
        at,
        callId: 'c1',
        decision: 'ask',
        rule: 'command toggle off',
        reason: 'commands need approval in code mode'
      },
      {
        type: 'approval-requested',
        at,
        approvalId: 'a1',
        callId: 'c1',
        kind: 'tool',
        summary: 'Run npm test',
        rule: 'command toggle off',
        reason: 'commands need approval'
      },
      { type: 'status', at, status: 'waiting' }
    ]
    const waiting = toolOf(called)
    expect(toolPhase(waiting, 'waiting')).toBe('waiting')
    // The reason as a sentence; the rule id goes to the tooltip.
    expect(decisionLabel(waiting)).toEqual({
      text: 'Waiting for your approval: Commands need approval.',
      rule: 'command toggle off'
    })
    const done = toolOf([
      ...called,
      { type: 'approval-resolved', at, approvalId: 'a1', outcome: 'approved' },
      { type: 'status', at, status: 'running' },
      { type: 'tool-started', at, callId: 'c1' },
      { type: 'tool-result', at, callId: 'c1', isError: false, text: '3 tests passed' }
    ])
    expect(toolPhase(done, 'running')).toBe('done')
    expect(decisionLabel(done)?.text).toBe('Approved by you')
    expect(done.result).toEqual({ isError: false, text: '3 tests passed' })
  })

  it('labels auto-approval by its rule, denial, and a rejection with the reason', () => {
    const allowed = toolOf([
      ...turnStart,
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'read_file', args: { path: 'a' } },
      {
        type: 'tool-decision',
        at,
        callId: 'c1',
        decision: 'allow',
        rule: 'read toggle (code mode)',
        reason: 'reads are auto-approved'
      }
    ])
    expect(decisionLabel(allowed)).toEqual({ text: 'Reads are auto-approved.', rule: 'read toggle (code mode)' })
    const denied = toolOf([
      ...turnStart,
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'write_to_file', args: { path: 'a' } },
      {
        type: 'tool-decision',
        at,
        callId: 'c1',
        decision: 'deny',
        rule: 'fileRegex',
        reason: 'only .md files in architect mode'
      },
      { type: 'tool-result', at, callId: 'c1', isError: true, text: 'denied' }
    ])
    expect(toolPhase(denied, 'running')).toBe('denied')
    expect(decisionLabel(denied)).toEqual({ text: 'Denied: Only .md files in architect mode.', rule: 'fileRegex' })
    const rejected = toolOf([
      ...turnStart,
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'execute_command', args: { command: 'rm -rf x' } },
      {
        type: 'approval-requested',
        at,
        approvalId: 'a1',
        callId: 'c1',
        kind: 'tool',
        summary: 's',
        rule: 'r',
        reason: 'why'
      },
      { type: 'approval-resolved', at, approvalId: 'a1', outcome: 'rejected', reason: 'not that folder' }
    ])
    expect(toolPhase(rejected, 'running')).toBe('rejected')
    expect(decisionLabel(rejected)?.text).toBe('Rejected by you: not that folder')
  })

  it('marks a call without result as not finished once the task stopped', () => {
    const item = toolOf([
      ...turnStart,
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'execute_command', args: { command: 'sleep 9' } },
      { type: 'tool-started', at, callId: 'c1' }
    ])
    expect(toolPhase(item, 'running')).toBe('running')
    expect(toolPhase(item, 'interrupted')).toBe('interrupted')
  })

  it('attaches file changes to their call and updates them in place', () => {
    const item = toolOf([
      ...turnStart,
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'apply_diff', args: { path: 'a.ts' } },
      { type: 'change', at, changeId: 'ch1', callId: 'c1', path: 'a.ts', status: 'proposed', auto: false },
      { type: 'change', at, changeId: 'ch1', callId: 'c1', path: 'a.ts', status: 'partially-applied', auto: false }
    ])
    expect(item.changes).toEqual([
      { changeId: 'ch1', path: 'a.ts', status: 'partially-applied', auto: false, detail: undefined }
    ])
  })

  it('shows an approval without a tool call (a paused loop) as its own item', () => {
    const view = fold([
      ...turnStart,
      {
        type: 'approval-requested',
        at,
        approvalId: 'a9',
        kind: 'cost-limit',
        summary: 'Spent $2.00',
        rule: 'costCap',
        reason: 'The cost cap of $2 was reached'
      }
    ])
    expect(view.items.at(-1)).toMatchObject({ kind: 'approval', approval: { approvalId: 'a9', kind: 'cost-limit' } })
    const resolved = reduceTaskEvent(view, { type: 'approval-resolved', at, approvalId: 'a9', outcome: 'approved' })
    expect(resolved.items.at(-1)).toMatchObject({ approval: { outcome: 'approved' } })
  })

  it('adds up usage over requests, keeps the latest context, and turns cost unknown for good', () => {
    const usage = (costUsd: number | null, contextTokens: number) =>
      ({
        type: 'usage',
        at,
        usage: {
          inputTokens: 100,
          outputTokens: 20,
          cacheReadTokens: 50,
          cacheWriteTokens: 0,
          costUsd,
          contextTokens,
          contextWindow: 200000
        }
      }) as AgentEvent
    const view = fold([usage(0.5, 1000), usage(0.25, 3000)])
    expect(view.usage).toEqual({
      inputTokens: 200,
      outputTokens: 40,
      cacheReadTokens: 100,
      cacheWriteTokens: 0,
      costUsd: 0.75,
      contextTokens: 3000,
      contextWindow: 200000,
      requests: 2
    })
    expect(fold([usage(0.5, 1), usage(null, 2), usage(0.5, 3)]).usage?.costUsd).toBeNull()
  })

  it('keeps the retry countdown until the next message starts or the task stops', () => {
    const retrying = fold([
      ...turnStart,
      { type: 'retry', at: 5000, attempt: 2, delayMs: 4000, reason: '429 rate limited' }
    ])
    expect(retrying.retry).toEqual({ attempt: 2, until: 9000, reason: '429 rate limited' })
    expect(reduceTaskEvent(retrying, { type: 'assistant-start', at, messageId: 'm2', model: 'x' }).retry).toBeNull()
    expect(reduceTaskEvent(retrying, { type: 'status', at, status: 'failed' }).retry).toBeNull()
  })

  it('keeps todos, follow-ups with suggestions, completion, mode switches and subtasks', () => {
    const view = fold([
      ...turnStart,
      {
        type: 'todos',
        at,
        items: [
          { text: 'read', status: 'completed' },
          { text: 'edit', status: 'in_progress' }
        ]
      },
      {
        type: 'followup',
        at,
        callId: 'q1',
        question: 'Which file?',
        suggestions: [{ answer: 'a.ts' }, { answer: 'plan it', mode: 'architect' }]
      },
      { type: 'mode-changed', at, mode: 'architect', reason: 'user asked' },
      { type: 'subtask', at, callId: 's', childId: 'child', mode: 'ask', status: 'started', message: 'look up' },
      { type: 'subtask', at, callId: 's', childId: 'child', mode: 'ask', status: 'completed', result: 'found' },
      { type: 'completion', at, result: 'All done' }
    ])
    expect(view.todos).toHaveLength(2)
    expect(view.mode).toBe('architect')
    expect(view.items.map((item) => item.kind)).toEqual([
      'user',
      'assistant',
      'followup',
      'mode',
      'subtask',
      'completion'
    ])
    expect(view.items[4]).toMatchObject({ status: 'completed', message: 'look up', result: 'found' })
  })

  it("puts a sandboxed command's network ask on its call's card: waiting while it waits, then how it ended", () => {
    const started: AgentEvent[] = [
      ...turnStart,
      {
        type: 'tool-call',
        at,
        messageId: 'm1',
        callId: 'c1',
        name: 'execute_command',
        args: { command: 'curl -m 8 https://example.com' }
      },
      { type: 'tool-started', at, callId: 'c1' },
      {
        type: 'network-ask',
        at,
        approvalId: 'a1',
        callId: 'c1',
        host: 'example.com',
        port: 443,
        command: 'curl -m 8 https://example.com'
      }
    ]
    const waiting = toolOf(started)
    expect(waiting.networkAsks).toEqual([
      { approvalId: 'a1', host: 'example.com', port: 443, command: 'curl -m 8 https://example.com' }
    ])
    expect(toolPhase(waiting, 'running')).toBe('waiting')
    const text = 'curl gave up waiting for approval of example.com:443 after 8 s.'
    const ended = toolOf([...started, { type: 'network-ask-ended', at, approvalId: 'a1', outcome: 'gave-up', text }])
    expect(ended.networkAsks).toEqual([{ ...waiting.networkAsks![0], outcome: 'gave-up', text }])
    expect(toolPhase(ended, 'running')).toBe('running')
    // A replayed log that repeats the ask does not show it twice.
    expect(toolOf([...started, started.at(-1)!]).networkAsks).toHaveLength(1)
  })

  it('ignores events it does not show', () => {
    const view = fold(turnStart)
    expect(
      reduceTaskEvent(view, { type: 'tool-result', at, callId: 'unknown', isError: false, text: 'x' }).items
    ).toEqual(view.items)
  })
})
