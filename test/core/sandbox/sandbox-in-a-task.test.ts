import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import type { ModeConfigInput } from '../../../src/shared/modes/schema'
import { createHarness, type Harness } from '../agent/support/harness'

/**
 * A sandboxed mode in a real task (fake model over loopback, real pty, real bubblewrap): commands
 * no rule names run unasked because the sandbox confines them; where the sandbox cannot start
 * (bubblewrap not on PATH) the same command asks, says why with the fix, and the result says it
 * ran unsandboxed. Either way the command's writes are part of the turn's checkpoint.
 */
let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const sandboxedMode: ModeConfigInput = {
  slug: 'boxed',
  name: 'Boxed',
  roleDefinition: 'You build things in a sandbox.',
  groups: ['read', 'edit', 'command'],
  autoApprove: { sandboxedCommands: true },
  sandbox: { enabled: true, network: 'none' }
}
// A build script: the command line itself has no redirect (a redirect always asks, sandbox or not).
const buildScript = 'echo built > out.txt\necho escaped >> "$HOME/.modus-sandbox-task-probe"\necho done\n'
const turns = [
  { toolCalls: [{ name: 'execute_command', input: { command: 'sh build.sh' } }] },
  { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
]

/** The execute_command result as the model received it in its next request. */
function resultSentToModel(h: Harness): string {
  const last = h.fake.requests.filter((r) => r.path.endsWith('/messages')).at(-1)!.body
  const blocks = last.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
  const result = blocks.find((b: { type: string }) => b.type === 'tool_result')
  return (Array.isArray(result.content) ? result.content : [{ text: result.content }])
    .map((b: { text?: string }) => b.text ?? '')
    .join('')
}

describe('a sandboxed mode in a real task', () => {
  it('runs a command no rule names without asking; the write outside is blocked and told; the checkpoint holds the write inside', async () => {
    // The shell's HOME is a temp dir of the test's own; the sandbox's writable temp dir is another,
    // so a write to HOME is a write outside the writable roots (and never reaches the user's home).
    const systemTemp = mkdtempSync(join(tmpdir(), 'modus-system-tmp-'))
    harness = await createHarness({
      modes: [sandboxedMode],
      turns,
      files: { 'build.sh': buildScript },
      sandbox: (askNetwork) => createSandboxService({ askNetwork, tempDir: systemTemp })
    })
    const h = harness
    const task = await h.services.tasks.start({ text: 'build it', mode: 'boxed', workspace: h.workspace })
    await h.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(h.services.approvals.list()).toEqual([])
    expect(readFileSync(join(h.workspace, 'out.txt'), 'utf8')).toBe('built\n')
    const sent = resultSentToModel(h)
    expect(sent).toMatch(/Sandbox: blocked a write to .*\.modus-sandbox-task-probe \(outside the writable roots\)\./)
    expect(existsSync(join(h.home, '.modus-sandbox-task-probe'))).toBe(false)
    expect(sent).toContain('done')
    const [checkpoint] = await h.services.handlers['checkpoints:list']({ taskId: task.id })
    expect(checkpoint).toMatchObject({ changedFiles: 1, failures: [] })
    expect(
      (await h.services.handlers['checkpoints:taskChanges']({ taskId: task.id })).map((c) => [c.path, c.operation])
    ).toEqual([['out.txt', 'create']])
  }, 90_000)

  it('where bubblewrap is missing, the same command asks and says why with the fix; approved, it runs and the result says unsandboxed', async () => {
    harness = await createHarness({
      modes: [sandboxedMode],
      turns: [{ toolCalls: [{ name: 'execute_command', input: { command: 'sh build.sh' } }] }, turns[1]],
      files: { 'build.sh': 'echo built > out.txt\necho done\n' },
      sandbox: (askNetwork) => createSandboxService({ askNetwork, path: () => '/nonexistent' }),
      // In a folder nobody trusted the ask says that first (default-sandbox.test.ts); here the mode's own sandbox speaks.
      trusted: true
    })
    const h = harness
    const status = await h.services.handlers['sandbox:status']({})
    expect(status).toMatchObject({
      available: false,
      reason: 'bubblewrap (bwrap), socat, ripgrep (rg) are not installed'
    })
    const task = await h.services.tasks.start({ text: 'build it', mode: 'boxed', workspace: h.workspace })
    const item = await h.waitForApproval((i) => i.tool === 'execute_command')
    expect(item.reason).toContain('Boxed mode runs commands in a sandbox, but it cannot start here')
    expect(item.reason).toContain('apt-get install bubblewrap socat ripgrep')
    expect(item.reason).toContain('would run unsandboxed')
    expect(existsSync(join(h.workspace, 'out.txt'))).toBe(false)
    h.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await h.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(readFileSync(join(h.workspace, 'out.txt'), 'utf8')).toBe('built\n')
    expect(resultSentToModel(h).split('\n')[1]).toMatch(
      /^Sandbox: not used\. The sandbox cannot start here: .*This command ran unsandboxed after approval\.$/
    )
  }, 90_000)
})
