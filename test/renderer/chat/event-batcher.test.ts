import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import { createEventBatcher } from '../../../src/renderer/src/features/chat/event-batcher'

const delta = (text: string): AgentEvent => ({ type: 'text-delta', messageId: 'm', text })

describe('createEventBatcher', () => {
  it('hands over everything queued in one frame, grouped per task in arrival order', () => {
    const frames: Array<() => void> = []
    const applied: Array<[string, string[]]> = []
    const batcher = createEventBatcher(
      (taskId, events) => applied.push([taskId, events.map((e) => (e as { text: string }).text)]),
      (run) => frames.push(run)
    )
    batcher.push('a', delta('1'))
    batcher.push('a', delta('2'))
    batcher.push('b', delta('3'))
    batcher.push('a', delta('4'))
    expect(frames).toHaveLength(1)
    expect(applied).toEqual([])
    frames[0]()
    expect(applied).toEqual([
      ['a', ['1', '2']],
      ['b', ['3']],
      ['a', ['4']]
    ])
    batcher.push('a', delta('5'))
    expect(frames).toHaveLength(2)
  })

  it('flushes on demand and on dispose, then ignores late events', () => {
    const frames: Array<() => void> = []
    const applied: string[] = []
    const batcher = createEventBatcher(
      (_, events) => applied.push(...events.map((e) => (e as { text: string }).text)),
      (run) => frames.push(run)
    )
    batcher.push('a', delta('x'))
    batcher.flush()
    expect(applied).toEqual(['x'])
    batcher.push('a', delta('y'))
    batcher.dispose()
    expect(applied).toEqual(['x', 'y'])
    batcher.push('a', delta('z'))
    frames.forEach((run) => run())
    expect(applied).toEqual(['x', 'y'])
  })
})
