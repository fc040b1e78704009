import { describe, expect, it } from 'vitest'
import * as clientEvents from '../../src/shared/contract/client-events'
import { createLazyEventFanout } from '../../src/shared/contract/lazy-event-fanout'

const nextTask = (run: () => void): void => void setTimeout(run, 0)
const waitForNextTask = () => new Promise((resolve) => nextTask(() => resolve(undefined)))

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
    const fanout = createLazyEventFanout((problem) => problems.push(problem), { load: schemas.load, nextTask })
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
    const fanout = createLazyEventFanout(() => {}, { load: schemas.load, nextTask })
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
    const fanout = createLazyEventFanout(() => {}, { load: schemas.load, nextTask })
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
    expect(order).toEqual(['event before', 'answer'])
    await waitForNextTask()
    expect(order).toEqual(['event before', 'answer', 'event after'])
    fanout.inOrder(() => order.push('later answer'))
    expect(order.at(-1)).toBe('later answer')
  })

  it('lets whoever awaited a held answer act on it before the events after it (a reload mid-stream loses no words)', async () => {
    const schemas = deferredSchemas()
    const fanout = createLazyEventFanout(() => {}, { load: schemas.load, nextTask })
    const order: string[] = []
    fanout.subscribe((name, payload) => {
      if (name === 'terminal:data') order.push(`event ${payload.data}`)
    })
    // As a task's replay: the answer resolves a request, and the view is replaced a few awaits later.
    let answer: (value: string) => void = () => {}
    const request = new Promise<string>((resolve) => (answer = resolve))
    const replayed = (async () => {
      const value = await request
      await Promise.resolve()
      order.push(`replay ${value}`)
    })()
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'in the replay' })
    fanout.inOrder(() => answer('answer'))
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'after the replay' })
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'later still' })

    schemas.arrive()
    await replayed
    await waitForNextTask()
    expect(order).toEqual(['event in the replay', 'replay answer', 'event after the replay', 'event later still'])
    fanout.deliver('terminal:data', { terminalId: 't1', data: 'live' })
    expect(order.at(-1)).toBe('event live')
  })

  it('delivers an answer at once when no event is held: the first screen does not wait for the schemas', async () => {
    const schemas = deferredSchemas()
    const fanout = createLazyEventFanout(() => {}, { load: schemas.load, nextTask })
    const order: string[] = []
    fanout.subscribe((name, payload) => {
      if (name === 'terminal:data') order.push(`event ${payload.data}`)
    })
    fanout.inOrder(() => order.push('workspace answer'))
    expect(order).toEqual(['workspace answer'])

    fanout.deliver('terminal:data', { terminalId: 't1', data: 'held' })
    fanout.inOrder(() => order.push('replay answer'))
    expect(order).toEqual(['workspace answer'])
    schemas.arrive()
    await schemas.load()
    await Promise.resolve()
    expect(order).toEqual(['workspace answer', 'event held', 'replay answer'])
  })
})

describe('when the event schemas load', () => {
  it('when the schedule says, or at the first event if that comes sooner; once', async () => {
    let loads = 0
    let scheduled: () => void = () => {}
    const load = () => {
      loads++
      return Promise.resolve(clientEvents)
    }
    const idle = createLazyEventFanout(() => {}, { load, schedule: (start) => (scheduled = start), nextTask })
    expect(loads).toBe(0)
    scheduled()
    scheduled()
    expect(loads).toBe(1)

    const seen: string[] = []
    const eager = createLazyEventFanout(() => {}, { load, schedule: () => {}, nextTask })
    eager.subscribe((...args) => void seen.push(args[0]))
    expect(loads).toBe(1)
    eager.deliver('terminal:changed', [])
    expect(loads).toBe(2)
    await Promise.resolve()
    await Promise.resolve()
    expect(seen).toEqual(['terminal:changed'])
    idle.deliver('terminal:changed', [])
    expect(loads).toBe(2)
  })
})
