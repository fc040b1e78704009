import { afterEach, describe, expect, it } from 'vitest'
import { toolResultsIn } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness } from './support/harness'

// The other side of "a whole-turn approval covers the later calls" (loop-behaviour.test.ts):
// approving one call approves that call only.
let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

describe('approval scope', () => {
  it('approving one call does not approve the next call of the same message that also asks', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [
        {
          toolCalls: [
            { name: 'execute_command', input: { command: 'echo one' } },
            { name: 'execute_command', input: { command: 'echo two' } }
          ]
        },
        done
      ]
    })
    const h = harness
    const task = await h.services.tasks.start({ text: 'echo', mode: 'builder', workspace: h.workspace })
    const first = await h.waitForApproval()
    expect(first.args).toMatchObject({ command: 'echo one' })
    h.services.approvals.decide({ approvalId: first.id, outcome: 'approve', scope: 'call' })
    const second = await h.waitForApproval((item) => item.id !== first.id)
    expect(second.args).toMatchObject({ command: 'echo two' })
    h.services.approvals.decide({ approvalId: second.id, outcome: 'reject', scope: 'call' })
    await h.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const [one, two] = toolResultsIn(h.fake.requests.filter((r) => r.protocol !== 'unknown')[1])
    expect(one.text).toContain('one')
    expect(two).toMatchObject({ isError: true })
    expect(two.text).not.toContain('two\n')
  }, 60_000)
})
