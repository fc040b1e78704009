import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { afterEach, expect, it } from 'vitest'
import { toolResultsIn } from '../../support/fake-provider'
import { createHarness, type Harness } from './support/harness'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

// 127.0.0.2 is not one of the local hosts the browser toggle covers, so it counts as a foreign origin;
// nothing listens on port 1, so each launch fails fast without any network.
const launch = (path: string) => ({
  toolCalls: [{ name: 'browser_action', input: { action: 'launch', url: `http://127.0.0.2:1/${path}` } }]
})

it('"always allow" on a page launch saves its origin as the mode\'s URL rule, and the next page there opens unasked', async () => {
  harness = await createHarness({
    modes: [
      {
        slug: 'surfer',
        name: 'Surfer',
        roleDefinition: 'You browse in tests.',
        groups: ['read', 'browser'],
        autoApprove: { read: true, browser: true }
      }
    ],
    turns: [
      launch('first'),
      launch('second'),
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Looked.' } }] }
    ]
  })
  const { services, fake } = harness
  const task = await services.tasks.start({ text: 'Look at the page', mode: 'surfer', workspace: harness.workspace })
  const item = await harness.waitForApproval((candidate) => candidate.tool === 'browser_action')
  expect(item.suggestedRule?.label).toBe('Always open pages on http://127.0.0.2:1 in Surfer mode')
  services.approvals.decide({
    approvalId: item.id,
    outcome: 'approve',
    scope: 'call',
    alwaysAllow: item.suggestedRule!.rule
  })

  await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
  const saved = parse(readFileSync(join(harness.dataDir, 'modes.yaml'), 'utf8')) as {
    customModes: { slug: string; browserRules?: { allow?: string[] } }[]
  }
  expect(saved.customModes.find((mode) => mode.slug === 'surfer')?.browserRules?.allow).toEqual(['http://127.0.0.2:1'])
  // Only the first launch asked; the second reached the browser (and failed to connect) without a question.
  expect(services.approvals.list().filter((pending) => pending.taskId === task.id)).toEqual([])
  const second = toolResultsIn(fake.requests[2])[0]?.text ?? ''
  expect(second).not.toContain('REFUSED')
  expect(second).toContain('127.0.0.2:1/second')
})
