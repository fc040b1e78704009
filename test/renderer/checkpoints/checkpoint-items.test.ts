import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import type { ChangeView } from '../../../src/shared/contract/approvals'
import { emptyTaskView, reduceTaskEvent } from '../../../src/renderer/src/common/chat/task-view'
import { describeRestore } from '../../../src/renderer/src/common/checkpoints/restore-message'
import { buildEditDecision, initialReview } from '../../../src/renderer/src/common/review/review-model'

const at = 1
const fold = (events: AgentEvent[]) => events.reduce(reduceTaskEvent, emptyTaskView())

describe('checkpoint markers in the chat', () => {
  it('a marker sits before its turn; rewinding drops everything after it and later turns append again', () => {
    const events: AgentEvent[] = [
      { type: 'checkpoint', at, checkpointId: 'c1', label: 'one', messageCount: 0 },
      { type: 'user-message', at, text: 'one' },
      { type: 'checkpoint', at, checkpointId: 'c2', label: 'two', messageCount: 2 },
      { type: 'user-message', at, text: 'two' },
      { type: 'assistant-start', at, messageId: 'm2', model: 'x' },
      { type: 'text-delta', messageId: 'm2', text: 'a bad answer' }
    ]
    expect(fold(events).items.map((i) => i.kind)).toEqual(['checkpoint', 'user', 'checkpoint', 'user', 'assistant'])
    const rewound = fold([
      ...events,
      { type: 'rewound', at, checkpointId: 'c2' },
      { type: 'checkpoint', at, checkpointId: 'c3', label: 'again' },
      { type: 'user-message', at, text: 'two again' }
    ])
    expect(
      rewound.items.map((i) => (i.kind === 'user' ? i.text : i.kind === 'checkpoint' ? i.checkpointId : i.kind))
    ).toEqual(['c1', 'one', 'c2', 'c3', 'two again'])
  })
})

describe('restore review', () => {
  const change = (id: string, conflict?: string): ChangeView => ({
    id,
    taskId: 't',
    callId: '',
    path: `${id}.txt`,
    operation: 'modify',
    original: 'now\n',
    proposed: 'before\n',
    hunks: [{ id: 'h1', oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-now', '+before'] }],
    status: 'proposed',
    auto: false,
    conflict,
    createdAt: 0
  })

  it('a file changed since Modus wrote it comes unticked, so accepting the rest leaves it alone', () => {
    const changes = [change('clean'), change('edited', 'changed after Modus last wrote it')]
    const review = initialReview(changes)
    expect(review.clean.accepted).toEqual([true])
    expect(review.edited.accepted).toEqual([false])
    const decision = buildEditDecision('a1', changes, review, '')
    expect(decision.changes?.find((c) => c.changeId === 'edited')?.acceptedHunks).toEqual([])
  })

  it('says what waits in the review and what was not restored', () => {
    expect(
      describeRestore({
        proposed: 2,
        conflicts: 1,
        restored: ['logo.png'],
        notRestored: [{ path: 'data.bin', reason: 'changed since' }]
      })
    ).toBe(
      '2 files to review in Approvals, 1 changed since and left unticked. Restored logo.png. Not restored: data.bin (changed since).'
    )
    expect(describeRestore({ proposed: 0, conflicts: 0, restored: [], notRestored: [] })).toMatch(
      /already as they were/
    )
  })
})
