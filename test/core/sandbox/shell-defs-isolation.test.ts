import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApprovalQueue } from '../../../src/main/core/approvals/approval-queue'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { ASKING, OFFLINE, startSandboxedShell, type SandboxedShell } from './sandboxed-shell'

/**
 * Two tasks' per-command sandboxes in one sandbox service (real bubblewrap and pty): a command in
 * one cannot read the functions and aliases another task's running command was started with.
 */
describe('shell definitions of different tasks', () => {
  let shell: SandboxedShell
  const approvals = createApprovalQueue()

  beforeAll(async () => {
    shell = await startSandboxedShell({ approvals, taskTitle: 'Defs isolation test', task: 'first' })
    await shell.h.service.forTask('first', shell.h.root).execute({
      command: 'first_secret() { echo SECRET-OF-FIRST; }',
      timeoutMs: 30_000
    })
  }, 60_000)
  afterAll(() => shell?.dispose())

  const cases: [string, EffectiveSandbox][] = [
    ['without network', OFFLINE],
    ['with network on ask', ASKING]
  ]
  it.each(cases)(
    '%s: a running command’s definitions file is out of another task’s reach',
    async (_name, setting) => {
      const first = shell.run('first_secret; sleep 4', setting, {}, 'first')
      await new Promise((resolve) => setTimeout(resolve, 1500))
      const probe = `grep -rls SECRET-OF-FIRST ${shell.tempDir} 2>/dev/null | grep -c . || true`
      const second = await shell.run(probe, setting, {}, 'second')
      expect((await first).output.text).toBe('SECRET-OF-FIRST\n')
      expect(second.output.text).toBe('0\n')
    },
    60_000
  )
})
