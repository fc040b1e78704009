import { afterEach, describe, expect, it } from 'vitest'
import { toolResultsIn } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness, type Protocol } from './support/harness'

let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const applyDiff = {
  name: 'apply_diff',
  input: {
    path: 'AGENTS.md',
    diff: '<<<<<<< SEARCH\n:start_line:3\n-------\nBe nice.\n=======\nBe kind.\n>>>>>>> REPLACE'
  }
}
const applyPatch = {
  name: 'apply_patch',
  input: { patch: '*** Begin Patch\n*** Update File: AGENTS.md\n@@\n # Agents\n \n-Be nice.\n+Be kind.\n*** End Patch' }
}

describe.each<Protocol>(['anthropic', 'openai'])(
  '%s: a task that reads, edits, runs a command and completes',
  (protocol) => {
    it('auto-approves what the mode allows, reviews the rest, and tells the model what happened', async () => {
      harness = await createHarness({
        protocol,
        modes: [builderMode],
        files: { 'src/app.ts': 'export const answer = 41\n', 'AGENTS.md': '# Agents\n\nBe nice.\n' },
        turns: [
          { text: 'Let me read the file.', toolCalls: [{ name: 'read_file', input: { path: 'src/app.ts' } }] },
          {
            toolCalls: [
              { name: 'write_to_file', input: { path: 'src/new.ts', content: 'export const created = true\n' } }
            ]
          },
          // GPT models are offered apply_patch in place of apply_diff (per-model tool customisation).
          { toolCalls: [protocol === 'anthropic' ? applyDiff : applyPatch] },
          { toolCalls: [{ name: 'execute_command', input: { command: 'cat src/new.ts' } }] },
          { toolCalls: [{ name: 'attempt_completion', input: { result: 'All done.' } }] }
        ]
      })
      const { services, fake } = harness
      const task = await services.tasks.start({
        text: 'Improve the project',
        mode: 'builder',
        workspace: harness.workspace
      })

      // AGENTS.md is protected: the edit waits in the queue as a diff review, even though edits are auto-approved.
      const review = await harness.waitForApproval((item) => item.kind === 'edit')
      expect(review.tool).toBe(protocol === 'anthropic' ? 'apply_diff' : 'apply_patch')
      const offered = (fake.requests[0].body.tools as Array<{ name?: string; function?: { name: string } }>).map(
        (t) => t.name ?? t.function?.name
      )
      expect(offered).toContain(protocol === 'anthropic' ? 'apply_diff' : 'apply_patch')
      expect(offered).not.toContain(protocol === 'anthropic' ? 'apply_patch' : 'apply_diff')
      expect(review.rule).toBe('protected-path')
      expect(review.changes?.[0]?.path).toBe('AGENTS.md')
      expect(review.changes?.[0]?.hunks.length).toBeGreaterThan(0)
      // The auto-approved write happened already and is listed with its diff.
      expect(await harness.read('src/new.ts')).toBe('export const created = true\n')
      expect(await harness.read('AGENTS.md')).toBe('# Agents\n\nBe nice.\n')
      const change = review.changes?.[0]
      services.approvals.decide({
        approvalId: review.id,
        outcome: 'approve',
        scope: 'call',
        changes: [{ changeId: change!.id, editedContent: '# Agents\n\nBe kind and brief.\n' }]
      })

      const command = await harness.waitForApproval((item) => item.kind === 'tool')
      expect(command.tool).toBe('execute_command')
      expect(command.suggestedRule?.label).toContain('cat')
      services.approvals.decide({ approvalId: command.id, outcome: 'approve', scope: 'call' })

      const outcome = await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
      expect(outcome).toMatchObject({ type: 'completion', result: 'All done.' })
      await services.tasks.whenSettled(task.id)
      expect(services.tasks.list().find((t) => t.id === task.id)?.status).toBe('completed')

      expect(await harness.read('AGENTS.md')).toBe('# Agents\n\nBe kind and brief.\n')
      const modelRequests = fake.requests.filter((r) => r.protocol === protocol)
      expect(modelRequests).toHaveLength(5)
      expect(toolResultsIn(modelRequests[1])[0]?.text).toContain('export const answer = 41')
      const reviewResult = toolResultsIn(modelRequests[3])[0]?.text ?? ''
      expect(reviewResult).toContain('kind and brief')
      expect(toolResultsIn(modelRequests[4])[0]?.text).toContain('export const created = true')

      const changes = services.edits.list(task.id)
      expect(changes.map((c) => [c.path, c.status, c.auto])).toEqual([
        ['src/new.ts', 'applied', true],
        ['AGENTS.md', 'applied', false]
      ])
      // The first request carried the task and the workspace listing.
      expect(JSON.stringify(modelRequests[0].body)).toContain('src/app.ts')
    })
  }
)
