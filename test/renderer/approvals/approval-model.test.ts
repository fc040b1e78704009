import { describe, expect, it } from 'vitest'
import type { ApprovalItem } from '../../../src/shared/contract/approvals'
import {
  browserPageOf,
  groupByTask,
  keyArguments,
  nextSelection,
  sameTurn,
  titleWithCount,
  whyAsked,
  hasLaterCallsInTurn,
  shortcutHint
} from '../../../src/renderer/src/common/approvals/approval-model'

const item = (id: string, extra: Partial<ApprovalItem> = {}): ApprovalItem => ({
  id,
  taskId: 't1',
  taskTitle: 'Task one',
  kind: 'tool',
  mode: 'code',
  summary: `item ${id}`,
  rule: 'command toggle',
  reason: 'commands need approval',
  createdAt: Number(id.replace(/\D/g, '')) || 0,
  ...extra
})

describe('approval queue model', () => {
  it('keeps the selection, or moves it to the next item down when the selected one is decided', () => {
    const before = [item('a1'), item('a2'), item('a3')]
    expect(nextSelection(before, before, 'a2')).toBe('a2')
    expect(nextSelection(before, [item('a1'), item('a3')], 'a2')).toBe('a3')
    expect(nextSelection(before, [item('a1'), item('a2')], 'a3')).toBe('a2')
    expect(nextSelection(before, [], 'a1')).toBeNull()
    expect(nextSelection([], [item('a4')], null)).toBe('a4')
  })

  it('shows the count in the title and removes it when nothing waits', () => {
    expect(titleWithCount('Modus', 2)).toBe('(2) Modus')
    expect(titleWithCount('(2) Modus', 3)).toBe('(3) Modus')
    expect(titleWithCount('(3) Modus', 0)).toBe('Modus')
  })

  it('groups by task in order of the oldest waiting item', () => {
    const groups = groupByTask([
      item('a5', { taskId: 't2', taskTitle: 'Two' }),
      item('a1'),
      item('a9', { taskId: 't2', taskTitle: 'Two' })
    ])
    expect(groups.map((g) => [g.taskTitle, g.items.map((i) => i.id)])).toEqual([
      ['Task one', ['a1']],
      ['Two', ['a5', 'a9']]
    ])
  })

  it('finds the items of the same assistant turn', () => {
    const items = [item('a1', { messageId: 'm1' }), item('a2', { messageId: 'm1' }), item('a3', { messageId: 'm2' })]
    expect(sameTurn(items, items[0]).map((i) => i.id)).toEqual(['a1', 'a2'])
    expect(sameTurn(items, item('a4')).map((i) => i.id)).toEqual(['a4'])
  })

  it('picks the telling arguments first and cuts long values', () => {
    expect(keyArguments({ timeout: 30, cwd: 'src', command: 'npm test' })).toEqual([
      { name: 'command', value: 'npm test' },
      { name: 'cwd', value: 'src' },
      { name: 'timeout', value: '30' }
    ])
    expect(keyArguments({ command: 'x'.repeat(500) }, 4, 20)[0].value).toHaveLength(20)
    expect(keyArguments(undefined)).toEqual([])
  })

  it('says why in a sentence, never by rule id, and not twice for a paused loop', () => {
    expect(whyAsked(item('a1'))).toBe('Commands need approval')
    expect(whyAsked(item('a1', { kind: 'cost-limit', reason: 'The $2 cap was reached' }))).toBe(
      'The $2 cap was reached'
    )
    expect(
      whyAsked(
        item('a1', {
          kind: 'mistake-limit',
          summary: 'The model made 3 mistakes.',
          reason: 'The model made 3 mistakes.'
        })
      )
    ).toBeNull()
  })

  it('offers the turn-wide answers only when later calls of the message wait', () => {
    expect(hasLaterCallsInTurn({ messageId: 'm1', laterInTurn: 0 })).toBe(false)
    expect(hasLaterCallsInTurn({ messageId: 'm1', laterInTurn: 2 })).toBe(true)
    expect(hasLaterCallsInTurn({ messageId: undefined, laterInTurn: 2 })).toBe(false)
  })

  it('names in its key hint only the keys that act on the item, as its buttons are named', () => {
    expect(shortcutHint(item('a1', { messageId: 'm1', laterInTurn: 0 }))).toBe('j/k or ↓/↑ move · a approve · r reject')
    expect(shortcutHint(item('a1', { messageId: 'm1', laterInTurn: 1 }))).toBe(
      'j/k or ↓/↑ move · a approve · r reject · A approve turn · R reject turn'
    )
    expect(shortcutHint(item('a1', { kind: 'edit', messageId: 'm1', laterInTurn: 0 }))).toBe(
      'j/k or ↓/↑ move · a accept as reviewed · r reject'
    )
    expect(shortcutHint(item('a1', { kind: 'network' }))).toBe('j/k or ↓/↑ move · a allow once · r deny')
    expect(shortcutHint(item('a1', { kind: 'cost-limit', messageId: 'm1', laterInTurn: 2 }))).toBe(
      'j/k or ↓/↑ move · a continue · r stop the task'
    )
  })
})

describe('keyArguments for file bodies', () => {
  it('summarises a file body or patch instead of printing it', () => {
    expect(keyArguments({ path: 'a.ts', content: 'one\ntwo\n' })).toEqual([
      { name: 'path', value: 'a.ts' },
      { name: 'content', value: '2 lines, 8 characters' }
    ])
  })

  it('names the page a browser launch opens and its origin; other calls have none', () => {
    const launch = (url: string) => browserPageOf({ tool: 'browser_action', args: { action: 'launch', url } })
    expect(launch('http://127.0.0.1:5173/app?x=1')).toEqual({
      url: 'http://127.0.0.1:5173/app?x=1',
      origin: 'http://127.0.0.1:5173'
    })
    expect(launch('file:///work/project/index.html')?.origin).toBe('a file on this computer')
    expect(launch('not a url')?.origin).toBe('none (not a valid URL)')
    expect(browserPageOf({ tool: 'browser_action', args: { action: 'click', coordinate: { x: 1, y: 2 } } })).toBeNull()
    expect(browserPageOf({ tool: 'read_file', args: { url: 'https://example.com' } })).toBeNull()
  })
})
