import { describe, expect, it } from 'vitest'
import type { EventArgs } from '../../src/shared/contract'
import { createEventFanout, parseEvent } from '../../src/shared/contract/client-events'

describe('events arriving at the renderer client', () => {
  it('reach every listener parsed, with the payload typed by the name', () => {
    const problems: string[] = []
    const fanout = createEventFanout((problem) => problems.push(problem))
    const seen: string[] = []
    const stop = fanout.subscribe((name, payload) => {
      // The compiler narrows the payload from the name: no cast.
      if (name === 'terminal:data') seen.push(`${payload.terminalId}:${payload.data}`)
    })
    const all: EventArgs[] = []
    fanout.subscribe((...args) => all.push(args))
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'hi' })
    stop()
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'again' })
    expect(seen).toEqual(['t1:hi'])
    expect(all.map(([name]) => name)).toEqual(['terminal:data', 'terminal:data'])
    expect(problems).toEqual([])
  })

  it('drops an unknown event or a payload its schema refuses, and says why', () => {
    const problems: string[] = []
    const fanout = createEventFanout((problem) => problems.push(problem))
    const seen: unknown[] = []
    fanout.subscribe((name, payload) => seen.push([name, payload]))
    fanout.deliver('terminal:explode', {})
    fanout.deliver('terminal:data', { terminalId: 42, data: 'x' })
    fanout.deliver('approvals:changed', 'not a list')
    expect(seen).toEqual([])
    expect(problems).toEqual([
      'Unknown event "terminal:explode"',
      expect.stringMatching(/^Invalid "terminal:data" event: terminalId: /),
      expect.stringMatching(/^Invalid "approvals:changed" event: \(payload\): /)
    ])
  })

  it('a failing listener does not keep the event from the others', () => {
    const problems: string[] = []
    const fanout = createEventFanout((problem) => problems.push(problem))
    let reached = false
    fanout.subscribe(() => {
      throw new Error('boom')
    })
    fanout.subscribe(() => (reached = true))
    fanout.deliver('terminal:changed', [])
    expect(reached).toBe(true)
    expect(problems).toEqual(['A listener of "terminal:changed" failed: boom'])
  })

  it('parseEvent keeps what the schema outputs', () => {
    expect(parseEvent('terminal:changed', [])).toEqual({ ok: true, args: ['terminal:changed', []] })
  })
})
