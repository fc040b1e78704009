import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPolicyGate } from '../../../src/main/core/loop/policy-gate'
import { GlobalPolicy } from '../../../src/main/core/settings/settings-schema'
import type { ResolvedMode } from '../../../src/shared/modes/schema'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'

/**
 * A path the real workspace refuses to resolve (here: a control character in its name) is judged
 * outside, the riskiest answer, even though its spelling looks inside. The mode auto-approves reads
 * inside and commands; reads outside ask.
 */
const readsInside: ResolvedMode = {
  slug: 'reader',
  name: 'Reader',
  roleDefinition: 'r',
  groups: ['read', 'command'],
  commandRules: { allow: ['*'] },
  autoApprove: { read: true, command: true },
  origin: 'global',
  overridesBuiltIn: false
}

let t: TempWorkspace
let decide: (name: string, params: Record<string, unknown>) => Promise<{ decision: string; reason: string }>

beforeAll(async () => {
  t = await tempWorkspace({ 'src/app.ts': 'app\n' })
  const gate = createPolicyGate({
    modes: () => [readsInside],
    policy: () => GlobalPolicy.parse({}),
    isTrusted: () => true,
    workspace: async () => t.workspace
  })
  decide = async (name, params) => gate.decide({ name, params }, { taskId: 't', mode: 'reader', workspace: t.root })
})
afterAll(() => t.cleanup())

describe('a path the workspace cannot resolve', () => {
  it('is not judged inside: a read of it asks, while the same read spelled cleanly is allowed', async () => {
    expect((await decide('read_file', { path: 'src/app.ts' })).decision).toBe('allow')
    await expect(t.workspace.resolve('src/app\u0007.ts')).rejects.toThrow(/control character/)
    const verdict = await decide('read_file', { path: 'src/app\u0007.ts' })
    expect(verdict.decision).toBe('ask')
    expect(verdict.reason).toMatch(/outside/i)
  })

  it('named in a command line, it asks too', async () => {
    expect((await decide('execute_command', { command: 'cat src/app.ts' })).decision).toBe('allow')
    expect((await decide('execute_command', { command: "cat $'src/app\\a.ts'" })).decision).toBe('ask')
  })
})
