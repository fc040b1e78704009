import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApprovalQueue } from '../../../src/main/core/approvals/approval-queue'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { ASKING, OFFLINE, startSandboxedShell, type SandboxedShell } from './sandboxed-shell'

/**
 * Two tasks' warm sandboxes in one sandbox service (real bubblewrap and pty): a command in one
 * cannot reach the other's request dir, where its task shell's exports dump and answer FIFOs are.
 */
describe('warm sandboxes of different tasks', () => {
  let shell: SandboxedShell
  const approvals = createApprovalQueue()

  beforeAll(async () => {
    shell = await startSandboxedShell({ approvals, taskTitle: 'Warm isolation test', task: 'first', warm: true })
  }, 60_000)
  afterAll(() => shell?.dispose())

  /** Every warm request dir on the host, wherever the service made it under the temp dir. */
  async function requestDirs(): Promise<string[]> {
    const found: string[] = []
    for (const parent of await readdir(shell.tempDir)) {
      const entries = await readdir(join(shell.tempDir, parent), { withFileTypes: true }).catch(() => [])
      const dirs = entries.filter((entry) => entry.isDirectory() && entry.name.startsWith('warm-'))
      found.push(...dirs.map((entry) => join(shell.tempDir, parent, entry.name)))
    }
    return found
  }

  const cases: [string, EffectiveSandbox][] = [
    ['without network', OFFLINE],
    ['with network on ask', ASKING]
  ]
  it.each(cases)(
    '%s: one task’s command can neither list nor write into the other task’s request dir',
    async (_name, setting) => {
      const before = new Set(await requestDirs())
      expect((await shell.run('echo first-up', setting, {}, 'first')).output.text).toBe('first-up\n')
      const firsts = (await requestDirs()).filter((dir) => !before.has(dir))
      expect(firsts).toHaveLength(1)
      const other = firsts[0]
      const probe = `ls -A ${other} 2>/dev/null || echo unlisted; [ -e ${other}/res ] && echo reachable || echo unreachable`
      const second = await shell.run(probe, setting, {}, 'second')
      expect(second.output.text).toBe('unlisted\nunreachable\n')
      // Its own request dir still serves it: the same warm sandbox takes the next command.
      const ns = await shell.run('readlink /proc/self/ns/pid', setting, {}, 'second')
      expect((await shell.run('readlink /proc/self/ns/pid', setting, {}, 'second')).output.text).toBe(ns.output.text)
    },
    90_000
  )
})
