import { describe, expect, it } from 'vitest'
import * as clientEvents from '../../src/shared/contract/client-events'
import { createLazyEventFanout } from '../../src/shared/contract/lazy-event-fanout'

/** A schema module that arrives when the test says so, as a lazy chunk arrives after the first paint. */
function deferredSchemas() {
  let arrive: () => void = () => {}
  const loaded = new Promise<typeof clientEvents>((resolve) => {
    arrive = () => resolve(clientEvents)
  })
  return { load: () => loaded, arrive: () => arrive() }
}

describe('events arriving before the contract schemas have loaded', () => {
  it('are held, then parsed and delivered in order once the schemas are in', async () => {
    const schemas = deferredSchemas()
    const problems: string[] = []
    const fanout = createLazyEventFanout((problem) => problems.push(problem), schemas.load)
    const seen: string[] = []
    fanout.subscribe((name, payload) => {
      if (name === 'terminal:data') seen.push(payload.data)
    })
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'one' })
    fanout.deliver('terminal:data', { terminalId: 42, data: 'bad' })
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'two' })
    expect(seen).toEqual([])

    schemas.arrive()
    await schemas.load()
    await Promise.resolve()
    expect(seen).toEqual(['one', 'two'])
    expect(problems).toEqual([expect.stringContaining('Invalid "terminal:data" event')])

    fanout.deliver('terminal:data', { terminalId: 't1', data: 'three' })
    expect(seen).toEqual(['one', 'two', 'three'])
  })

  it('does not deliver to a listener that left before the schemas arrived, nor after it leaves', async () => {
    const schemas = deferredSchemas()
    const fanout = createLazyEventFanout(() => {}, schemas.load)
    const early: string[] = []
    const late: string[] = []
    const stopEarly = fanout.subscribe((...args) => void early.push(args[0]))
    const stopLate = fanout.subscribe((...args) => void late.push(args[0]))
    stopEarly()
    fanout.deliver('terminal:changed', [])
    schemas.arrive()
    await schemas.load()
    await Promise.resolve()
    expect(early).toEqual([])
    expect(late).toEqual(['terminal:changed'])
    stopLate()
    fanout.deliver('terminal:changed', [])
    expect(late).toEqual(['terminal:changed'])
  })
  it('keeps a request answer behind the events that arrived before it (a replay must not overtake them)', async () => {
    const schemas = deferredSchemas()
    const fanout = createLazyEventFanout(() => {}, schemas.load)
    const order: string[] = []
    fanout.subscribe((name, payload) => {
      if (name === 'terminal:data') order.push(`event ${payload.data}`)
    })
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'before' })
    fanout.inOrder(() => order.push('answer'))
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'after' })
    expect(order).toEqual([])

    schemas.arrive()
    await schemas.load()
    await Promise.resolve()
    expect(order).toEqual(['event before', 'answer', 'event after'])
    fanout.inOrder(() => order.push('later answer'))
    expect(order.at(-1)).toBe('later answer')
  })
})
