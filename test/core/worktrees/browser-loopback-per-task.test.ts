import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModeConfigInput } from '../../../src/shared/modes/schema'
import { createHarness, type Harness } from '../agent/support/harness'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const surfer: ModeConfigInput = {
  slug: 'surfer',
  name: 'Surfer',
  roleDefinition: 'You look at pages in tests.',
  groups: ['read', 'browser'],
  autoApprove: { read: true, browser: true }
}

/** The task's page on its own port reaching another local server: the ask that offers "always". */
const reachOut = (url: string) => ({
  name: 'browser_action',
  params: { action: 'launch', url, openedFrom: 'http://localhost:41000/' }
})

describe('the browser tool’s loopback approvals', () => {
  it('hold in the task that gave them only: another task’s localhost:3000 asks again, and the mode keeps no rule', async () => {
    harness = await createHarness({ modes: [surfer], trusted: true })
    const { gate } = harness.services
    const taskA = { taskId: 'task-a', mode: 'surfer', workspace: harness.workspace }
    const taskB = { taskId: 'task-b', mode: 'surfer', workspace: harness.workspace }
    const local = reachOut('http://localhost:3000/app')

    const asked = await gate.decide(local, taskA)
    expect(asked).toMatchObject({
      decision: 'ask',
      rule: 'foreign-origin',
      suggestedRule: { rule: { browserAllow: 'http://localhost:3000', thisTask: true } }
    })
    expect(asked.suggestedRule?.label).toContain('in this task')
    // The user picks "always" on task A's approval.
    await gate.saveRule('surfer', asked.suggestedRule!.rule, 'task-a')

    expect(await gate.decide(local, taskA)).toMatchObject({ decision: 'allow' })
    expect(await gate.decide(reachOut('http://127.0.0.1:3000/'), taskA)).toMatchObject({ decision: 'ask' })
    expect(await gate.decide(local, taskB)).toMatchObject({ decision: 'ask', rule: 'foreign-origin' })
    const modesFile = await fs.readFile(join(harness.dataDir, 'modes.yaml'), 'utf8')
    expect(modesFile).not.toContain('localhost:3000')
    // Without a task to hold it, a loopback "always" is refused rather than saved for every task.
    await expect(gate.saveRule('surfer', asked.suggestedRule!.rule)).rejects.toThrow('per task')

    // An origin on the internet is the same server for every task: its "always" still goes to the mode.
    const remote = await gate.decide(reachOut('https://docs.example.com/'), taskA)
    expect(remote.suggestedRule?.rule).toEqual({ browserAllow: 'https://docs.example.com' })
    await gate.saveRule('surfer', remote.suggestedRule!.rule, 'task-a')
    expect(await gate.decide(reachOut('https://docs.example.com/x'), taskB)).toMatchObject({ decision: 'allow' })
  })
})
