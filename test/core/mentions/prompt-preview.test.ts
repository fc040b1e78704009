import { afterEach, expect, it } from 'vitest'
import { createPromptHandlers } from '../../../src/main/core/loop/prompt-preview'
import { createHarness, type Harness } from '../agent/support/harness'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

it("prompt:preview gives the mode's system prompt and each included rule file with its tokens", async () => {
  harness = await createHarness({ files: { 'AGENTS.md': 'Always write tests first.\n', 'CLAUDE.md': 'Use tabs.\n' } })
  const handlers = createPromptHandlers({
    loop: () => harness!.services.tasks.agentLoop,
    gate: harness.services.gate,
    currentWorkspace: () => harness!.workspace
  })
  const preview = await handlers['prompt:preview']({ mode: 'code' })
  expect(preview.system).toContain('Always write tests first.')
  expect(preview.rules.map((rule) => rule.path)).toEqual(['AGENTS.md', 'CLAUDE.md'])
  for (const rule of preview.rules) expect(rule.tokens).toBeGreaterThan(3)
  expect(preview.systemTokens).toBeGreaterThan(preview.rules[0].tokens)
  await expect(handlers['prompt:preview']({ mode: 'nope' })).rejects.toThrow('Unknown mode "nope"')
})
