import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './support/harness'

/**
 * Events added to a task from outside its run (a sandboxed command still running in the background
 * asks about a connection after its task's run ended): they reach the task's log and listeners
 * in the order given, whether the task is in memory or was put back.
 */
let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

describe('recording an event outside a run', () => {
  it('adds it to a finished task that is no longer in memory, in order, and the log keeps it', async () => {
    harness = await createHarness({
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }]
    })
    const h = harness
    const task = await h.services.tasks.start({ text: 'finish', workspace: h.workspace })
    await h.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    await h.services.tasks.whenSettled(task.id)

    void h.services.tasks.record(task.id, {
      type: 'network-ask',
      at: 1,
      approvalId: 'n1',
      callId: 'c9',
      host: 'example.com',
      port: 443,
      command: 'curl https://example.com'
    })
    await h.services.tasks.record(task.id, {
      type: 'network-ask-ended',
      at: 2,
      approvalId: 'n1',
      outcome: 'denied',
      text: 'You denied example.com:443.'
    })

    const heard = h
      .eventsOf(task.id)
      .filter((e) => e.type.startsWith('network-ask'))
      .map((e) => e.type)
    expect(heard).toEqual(['network-ask', 'network-ask-ended'])
    const logged = (await h.services.tasks.events(task.id))
      .filter((e) => e.type.startsWith('network-ask'))
      .map((e) => e.type)
    expect(logged).toEqual(['network-ask', 'network-ask-ended'])
    // Put back as it was: still completed, not marked interrupted.
    expect(h.services.tasks.list().find((t) => t.id === task.id)?.status).toBe('completed')
  })

  it('a deleted task is skipped without an error', async () => {
    harness = await createHarness({
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }]
    })
    const h = harness
    const task = await h.services.tasks.start({ text: 'finish', workspace: h.workspace })
    await h.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    await h.services.tasks.delete(task.id)
    await expect(
      h.services.tasks.record(task.id, {
        type: 'network-ask-ended',
        at: 2,
        approvalId: 'n1',
        outcome: 'denied',
        text: 'x'
      })
    ).resolves.toBeUndefined()
  })
})
