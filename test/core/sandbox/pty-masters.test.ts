import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxService, type SandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { createHarness, type Harness } from '../terminal/harness'

/**
 * node-pty leaves the task terminals' pty masters open across exec. A sandboxed command holding
 * one could type a line into a task shell, which runs it outside the sandbox. Real bubblewrap,
 * real ptys: a second task's sandboxed commands (warm and per command) look for a master among
 * their descriptors and write `touch .git/PWNED` to any they find; `.git` is read-only inside.
 */
describe('a sandboxed command and the task terminals', () => {
  let h: Harness
  let sandbox: SandboxService
  const offline: EffectiveSandbox = { network: 'none', allowedDomains: [] }
  const pwned = (): boolean => existsSync(join(h.root, '.git', 'PWNED'))
  const inject =
    'for f in /proc/self/fd/*; do n=${f##*/}; [ "$(readlink "$f")" = /dev/ptmx ] && printf "touch .git/PWNED\\n" >&"$n" && echo "typed into $n"; done; true'

  beforeAll(async () => {
    h = await createHarness()
    await mkdir(join(h.root, '.git'))
    sandbox = createSandboxService({
      tempDir: join(h.root, '..'),
      home: () => h.home,
      askNetwork: async () => ({ allow: false })
    })
  }, 60_000)
  afterAll(async () => {
    await sandbox?.dispose()
    await h?.cleanup()
  })

  const run = (task: string, command: string, warm: boolean) =>
    h.service.forTask(task, h.root).execute({
      command,
      timeoutMs: 30_000,
      sandbox: (text, shell, tty) =>
        sandbox.prepare({
          taskId: task,
          modeSlug: 'code',
          modeName: 'Code',
          command: text,
          workspaceRoot: h.root,
          sandbox: offline,
          shell,
          ...(warm ? { tty } : {})
        })
    })

  it.each([
    ['in a warm sandbox', true],
    ['in a sandbox started for it', false]
  ])(
    'holds no pty master %s, so it cannot type into a task shell',
    async (_how, warm) => {
      // The first task's terminal exists before the second's shell and sandbox start.
      await h.service.forTask('first', h.root).execute({ command: 'true' })
      const result = await run('second', inject, warm)
      expect(result.exitCode).toBe(0)
      expect(result.output.text).not.toContain('typed into')
      // Anything typed would run in those shells before these commands.
      await h.service.forTask('first', h.root).execute({ command: 'true' })
      await h.service.forTask('second', h.root).execute({ command: 'true' })
      expect(pwned()).toBe(false)
    },
    60_000
  )
})
