import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import type { RecordedRequest } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness, type Protocol } from './support/harness'

/**
 * The provider's server (or a proxy) closes the socket while the answer streams: undici throws
 * `terminated`. The real SDKs run against the fake provider, which drops the connection mid-way.
 */
let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
const ends = (events: AgentEvent[]) =>
  events.filter((e): e is Extract<AgentEvent, { type: 'assistant-end' }> => e.type === 'assistant-end')

describe.each<Protocol>(['anthropic', 'openai'])('%s: a connection dropped mid-answer', (protocol) => {
  it('is retried with backoff; the cut-off text stays visible, marked as cut, and the model never sees it', async () => {
    harness = await createHarness({
      protocol,
      modes: [builderMode],
      turns: [
        { text: ['This ', 'answer ', 'breaks ', 'off ', 'halfway'], cutAfterChunks: 3 },
        { text: ['Also ', 'cut'], cutAfterChunks: 1 },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const events = harness.eventsOf(task.id)

    expect(events.some((e) => e.type === 'status' && e.status === 'failed')).toBe(false)
    const retries = events.filter((e) => e.type === 'retry')
    expect(retries.map((e) => e.type === 'retry' && [e.attempt, e.delayMs])).toEqual([
      [1, 500],
      [2, 1000]
    ])
    expect(harness.retryWaits).toEqual([500, 1000])
    expect(retries[0]).toMatchObject({ reason: expect.stringMatching(/connection to .* was lost mid-answer/) })
    const [first, second, last] = ends(events)
    expect(first).toMatchObject({ stopReason: 'error', cutOff: true })
    expect(second).toMatchObject({ stopReason: 'error', cutOff: true })
    expect(last.cutOff).toBeUndefined()
    const shown = events
      .filter((e) => e.type === 'text-delta' && e.messageId === first.messageId)
      .map((e) => (e as { text: string }).text)
      .join('')
    expect(shown).toBe('This answer breaks ')

    // Every request asked for the same whole turn: the cut text was never sent back as history.
    const requests = modelRequests(harness)
    expect(requests).toHaveLength(3)
    expect(JSON.stringify(requests[2].body.messages)).not.toContain('breaks')
    expect(requests[2].body.messages).toEqual(requests[0].body.messages)
  })

  it('fails recoverably once the retries are spent, keeping the cut text marked', async () => {
    const cut = { text: ['Partial ', 'words ', 'here'], cutAfterChunks: 2 }
    harness = await createHarness({ protocol, modes: [builderMode], turns: [cut, cut, cut, cut] })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'status' && e.status === 'failed')
    const events = harness.eventsOf(task.id)
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(3)
    expect(harness.retryWaits).toEqual([500, 1000, 2000])
    expect(ends(events).every((e) => e.cutOff === true)).toBe(true)
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      recoverable: true,
      message: expect.stringMatching(/was lost mid-answer/)
    })
  })

  it('tells the model, when the task is resumed, that the kept text was cut off', async () => {
    const cut = { text: ['Partial ', 'words ', 'here'], cutAfterChunks: 2 }
    harness = await createHarness({ protocol, modes: [builderMode], turns: [cut, cut, cut, cut, done] })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'status' && e.status === 'failed')
    // The failed run settles just after its status event: resume once it has.
    const starts = () => harness!.eventsOf(task.id).filter((e) => e.type === 'assistant-start').length
    for (const before = starts(); starts() === before; await new Promise((r) => setTimeout(r, 50)))
      await harness.services.tasks.resume(task.id)
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const history = JSON.stringify(modelRequests(harness).at(-1)!.body.messages)
    expect(history).toContain('Partial words')
    expect(history).toMatch(/This response was cut off by an error \(.*\); it is incomplete\./)
  })
})
