import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import { parsePartialJson } from '../../../src/renderer/src/features/chat/partial-json'
import {
  changeLabel,
  emptyTaskView,
  phaseLabel,
  reduceTaskEvent,
  toolPhase,
  type ToolItem
} from '../../../src/renderer/src/common/chat/task-view'

const at = 1000
const fold = (events: AgentEvent[]) => events.reduce(reduceTaskEvent, emptyTaskView())
const toolOf = (events: AgentEvent[], callId = 'c1') =>
  fold(events).items.find((item) => item.kind === 'tool' && item.id === callId) as ToolItem
const chip = (events: AgentEvent[], status: Parameters<typeof toolPhase>[1] = 'running', callId = 'c1'): string => {
  const item = toolOf(events, callId)
  return phaseLabel(item, toolPhase(item, status))
}

const called = (name: string, args: unknown, callId = 'c1'): AgentEvent[] => [
  { type: 'status', at, status: 'running' },
  { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
  { type: 'tool-call', at, messageId: 'm1', callId, name, args },
  { type: 'tool-started', at, callId }
]

describe('the chip of a tool card says what happened', () => {
  it('a command that exits non-zero failed, with its exit code; exit 0 is done', () => {
    const command = called('execute_command', { command: 'false' })
    expect(
      chip([
        ...command,
        { type: 'tool-result', at, callId: 'c1', isError: false, text: 'Command failed with exit code 1', exitCode: 1 }
      ])
    ).toBe('failed (exit 1)')
    expect(chip([...command, { type: 'tool-result', at, callId: 'c1', isError: false, text: 'ok', exitCode: 0 }])).toBe(
      'done'
    )
  })

  it('a call skipped after a rejection is skipped, not failed', () => {
    const events: AgentEvent[] = [
      ...called('read_file', { path: 'a' }),
      { type: 'tool-result', at, callId: 'c1', isError: true, text: 'Skipped: …', outcome: 'skipped' }
    ]
    expect(chip(events)).toBe('skipped')
  })

  it('a write whose approval was withdrawn by cancelling is cancelled, and its file not written', () => {
    const events: AgentEvent[] = [
      ...called('write_to_file', { path: 'a.ts' }),
      { type: 'change', at, changeId: 'ch1', callId: 'c1', path: 'a.ts', status: 'proposed', auto: false },
      {
        type: 'approval-requested',
        at,
        approvalId: 'ap1',
        callId: 'c1',
        kind: 'edit',
        summary: 's',
        rule: 'r',
        reason: 'why'
      },
      { type: 'approval-resolved', at, approvalId: 'ap1', outcome: 'cancelled' },
      { type: 'change', at, changeId: 'ch1', callId: 'c1', path: 'a.ts', status: 'rejected', auto: false },
      {
        type: 'tool-result',
        at,
        callId: 'c1',
        isError: false,
        text: 'The write_to_file call was not completed',
        outcome: 'cancelled'
      },
      { type: 'status', at, status: 'cancelled' }
    ]
    expect(chip(events, 'cancelled')).toBe('cancelled')
    expect(changeLabel(toolOf(events).changes[0], true)).toBe('not written (cancelled)')
  })

  it('an edit with some hunks rejected says how many were applied; one the user edited says so', () => {
    const edit = called('apply_diff', { path: 'a.ts' })
    const partial: AgentEvent[] = [
      ...edit,
      {
        type: 'change',
        at,
        changeId: 'ch1',
        callId: 'c1',
        path: 'a.ts',
        status: 'partially-applied',
        auto: false,
        hunksAccepted: 1,
        hunksTotal: 2
      },
      { type: 'tool-result', at, callId: 'c1', isError: false, text: 'applied' }
    ]
    expect(chip(partial)).toBe('applied 1 of 2 hunks')
    expect(changeLabel(toolOf(partial).changes[0], false)).toBe('applied 1 of 2 hunks')
    const edited: AgentEvent[] = [
      ...edit,
      {
        type: 'change',
        at,
        changeId: 'ch1',
        callId: 'c1',
        path: 'a.ts',
        status: 'applied',
        auto: false,
        hunksAccepted: 2,
        hunksTotal: 2,
        editedByUser: true
      },
      { type: 'tool-result', at, callId: 'c1', isError: false, text: 'applied with user edits' }
    ]
    expect(chip(edited)).toBe('edited by you')
  })

  it('a call not reached when the task was stopped is cancelled; after a crash, not finished', () => {
    const events = called('execute_command', { command: 'sleep 9' })
    expect(chip(events, 'cancelled')).toBe('cancelled')
    expect(chip(events, 'interrupted')).toBe('not finished')
  })

  it('a complete call waiting behind an earlier one is queued, no longer "writing…"', () => {
    const streaming: AgentEvent[] = [
      { type: 'status', at, status: 'running' },
      { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
      { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'write_to_file', args: { path: 'a.ts' } },
      {
        type: 'tool-call-partial',
        messageId: 'm1',
        callId: 'c2',
        name: 'read_file',
        argsDelta: '{"path": "src/b',
        argsOffset: 0
      }
    ]
    expect(chip(streaming, 'running', 'c2')).toBe('writing…')
    expect(
      chip([...streaming, { type: 'assistant-end', at, messageId: 'm1', stopReason: 'tool_use' }], 'running', 'c2')
    ).toBe('queued')
  })
})

describe('parsePartialJson reads streamed arguments as far as they go', () => {
  it('closes an open string, object and array', () => {
    expect(parsePartialJson('{"path": "src/b')).toEqual({ path: 'src/b' })
    expect(parsePartialJson('{"command": "npm test", "cwd": "pack')).toEqual({ command: 'npm test', cwd: 'pack' })
    expect(parsePartialJson('{"todos": ["a", "b')).toEqual({ todos: ['a', 'b'] })
    expect(parsePartialJson('{"content": "line\\')).toEqual({ content: 'line' })
  })

  it('drops a key without its value, and gives up on nothing usable', () => {
    expect(parsePartialJson('{"path": "a.ts", "con')).toEqual({ path: 'a.ts' })
    expect(parsePartialJson('{"path": "a.ts", "content":')).toEqual({ path: 'a.ts' })
    expect(parsePartialJson('{"pa')).toEqual({})
    expect(parsePartialJson('')).toBeUndefined()
    expect(parsePartialJson('{"path": "a.ts", "n": tr')).toEqual({ path: 'a.ts' })
  })
})
