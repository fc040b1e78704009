import { describe, expect, it } from 'vitest'
import type { ChangeView } from '../../../src/shared/contract/approvals'
import { computeHunks } from '../../../src/shared/diff/hunks'
import {
  buildEditDecision,
  countAccepted,
  initialReview,
  setEdited,
  setFile,
  setHunk,
  openQuestions,
  restoreReview
} from '../../../src/renderer/src/common/review/review-model'

const original = [
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  ''
].join('\n')
const proposed = original.replace('two', 'TWO').replace('eleven', 'ELEVEN')

const change = (id: string, from = original, to = proposed): ChangeView => ({
  id,
  taskId: 't',
  callId: 'c',
  path: `${id}.txt`,
  operation: 'modify',
  original: from,
  proposed: to,
  hunks: computeHunks(from, to),
  status: 'proposed',
  auto: false,
  createdAt: 0
})

describe('review model', () => {
  it('accepts everything by default and sends no hunk list then', () => {
    const changes = [change('a')]
    expect(changes[0].hunks).toHaveLength(2)
    const review = initialReview(changes)
    expect(countAccepted(review)).toEqual({ accepted: 2, total: 2 })
    expect(buildEditDecision('ap', changes, review)).toEqual({
      approvalId: 'ap',
      outcome: 'approve',
      scope: 'call',
      reason: undefined,
      changes: [{ changeId: 'a' }]
    })
  })

  it('names the accepted hunks of a partly accepted file and skips a fully rejected one', () => {
    const changes = [change('a'), change('b')]
    let review = setHunk(initialReview(changes), 'a', 1, false)
    review = setFile(review, 'b', false)
    expect(buildEditDecision('ap', changes, review, '  keep the first only ')).toEqual({
      approvalId: 'ap',
      outcome: 'approve',
      scope: 'call',
      reason: 'keep the first only',
      changes: [
        { changeId: 'a', acceptedHunks: ['h1'] },
        { changeId: 'b', acceptedHunks: [] }
      ]
    })
  })

  it('turns into a rejection with the reason when no hunk is kept', () => {
    const changes = [change('a')]
    const review = setFile(initialReview(changes), 'a', false)
    expect(buildEditDecision('ap', changes, review, 'wrong approach')).toEqual({
      approvalId: 'ap',
      outcome: 'reject',
      scope: 'call',
      reason: 'wrong approach'
    })
  })

  it('sends an edited proposal as the final text, with rejected hunks of the edit left out', () => {
    const changes = [change('a')]
    const edited = proposed.replace('TWO', 'Two (edited)')
    let review = setEdited(initialReview(changes), changes[0], edited)
    expect(review.a.edited).toBe(edited)
    expect(buildEditDecision('ap', changes, review).changes).toEqual([{ changeId: 'a', editedContent: edited }])
    review = setHunk(review, 'a', 1, false)
    const decision = buildEditDecision('ap', changes, review)
    expect(decision.changes).toEqual([{ changeId: 'a', editedContent: original.replace('two', 'Two (edited)') }])
  })

  it('drops the edit when the text is typed back to the proposal', () => {
    const changes = [change('a')]
    const review = setEdited(setEdited(initialReview(changes), changes[0], 'x'), changes[0], proposed)
    expect(review.a.edited).toBeNull()
    expect(review.a.hunks).toBe(changes[0].hunks)
  })

  it('keeps a rejected hunk rejected when another hunk is edited, and writes exactly that', () => {
    const changes = [change('a')]
    let review = setHunk(initialReview(changes), 'a', 1, false)
    review = setEdited(review, changes[0], proposed.replace('TWO', 'TWO!'))
    expect(review.a.accepted).toEqual([true, false])
    expect(openQuestions(review)).toEqual([])
    expect(buildEditDecision('ap', changes, review).changes).toEqual([
      { changeId: 'a', editedContent: original.replace('two', 'TWO!') }
    ])
  })

  it('asks which wins when the user types inside a rejected hunk, even after it vanished on the way', () => {
    const changes = [change('a')]
    let review = setHunk(initialReview(changes), 'a', 1, false)
    // Erasing ELEVEN back to the original line makes the hunk vanish; typing more brings it back.
    review = setEdited(review, changes[0], proposed.replace('ELEVEN', 'eleven'))
    expect(review.a.hunks).toHaveLength(1)
    review = setEdited(review, changes[0], proposed.replace('ELEVEN', 'eleven!'))
    expect(review.a.accepted).toEqual([true, false])
    expect(openQuestions(review)).toEqual([2])
    expect(countAccepted(review)).toEqual({ accepted: 1, total: 2 })
    // Answering "my edit wins" accepts it; later typing there stays accepted.
    review = setHunk(review, 'a', 1, true)
    expect(openQuestions(review)).toEqual([])
    review = setEdited(review, changes[0], proposed.replace('ELEVEN', 'eleven!!'))
    expect(review.a.accepted).toEqual([true, true])
    expect(buildEditDecision('ap', changes, review).changes).toEqual([
      { changeId: 'a', editedContent: proposed.replace('ELEVEN', 'eleven!!') }
    ])
  })

  it('typing back to the proposal keeps the decisions made on it', () => {
    const changes = [change('a')]
    let review = setHunk(initialReview(changes), 'a', 0, false)
    review = setEdited(setEdited(review, changes[0], proposed.replace('ELEVEN', 'ELEVEN!')), changes[0], proposed)
    expect(review.a.edited).toBeNull()
    expect(review.a.accepted).toEqual([false, true])
    expect(buildEditDecision('ap', changes, review).changes).toEqual([{ changeId: 'a', acceptedHunks: ['h2'] }])
  })

  it('restores a review saved before a reload, the hunks recomputed from the saved text', () => {
    const changes = [change('a')]
    const edited = proposed.replace('TWO', 'TWO!')
    const review = setHunk(setEdited(initialReview(changes), changes[0], edited), 'a', 1, false)
    const saved: unknown = JSON.parse(JSON.stringify(review, (key, value) => (key === 'hunks' ? undefined : value)))
    const restored = restoreReview(changes, saved)
    expect(restored).toEqual(review)
    expect(buildEditDecision('ap', changes, restored!)).toEqual(buildEditDecision('ap', changes, review))
  })

  it('refuses a saved review that does not answer these hunks or is not a review at all', () => {
    const changes = [change('a')]
    const fresh = JSON.parse(JSON.stringify(initialReview(changes))) as Record<string, Record<string, unknown>>
    expect(restoreReview(changes, fresh)).not.toBeNull()
    expect(restoreReview(changes, { a: { ...fresh.a, accepted: [false] } })).toBeNull()
    expect(restoreReview(changes, { a: { ...fresh.a, edited: 7 } })).toBeNull()
    expect(restoreReview(changes, { ...fresh, b: fresh.a })).toBeNull()
    expect(restoreReview(changes, { b: fresh.a })).toBeNull()
    expect(restoreReview(changes, 'a')).toBeNull()
    expect(restoreReview(changes, null)).toBeNull()
  })

  it('approving the whole turn with every hunk rejected approves the turn and writes nothing of this edit', () => {
    const changes = [change('a')]
    const review = setFile(initialReview(changes), 'a', false)
    expect(buildEditDecision('ap', changes, review).outcome).toBe('reject')
    expect(buildEditDecision('ap', changes, review, undefined, 'turn')).toEqual({
      approvalId: 'ap',
      outcome: 'approve',
      scope: 'turn',
      reason: undefined,
      changes: [{ changeId: 'a', acceptedHunks: [] }]
    })
  })
})
