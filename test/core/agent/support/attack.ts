import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ApprovalItem } from '../../../../src/shared/contract/approvals'
import type { ModeConfigInput } from '../../../../src/shared/modes/schema'
import type { FakeTurn } from '../../../support/fake-provider'
import type { Harness } from './harness'

/**
 * Attacks on auto-approval, played as an attacker would through a real task: a scripted model,
 * the real policy, a real task shell (bash, temporary HOME) in a workspace nobody trusted.
 */

/** A shell started by these tests reads no rc file of the user's: HOME is a fresh folder. */
export function useTemporaryHome(): void {
  process.env.HOME = realpathSync(mkdtempSync(join(tmpdir(), 'modus-home-')))
}

const READ_ONLY_GIT = ['cd *', 'git status *', 'git diff *', 'git log *', 'git show *', 'git blame *', 'pytest *']

/** Like the built-in Code mode's command list: read-only git and tests auto-approved, no sandbox. */
export const guardedMode: ModeConfigInput = {
  slug: 'guarded',
  name: 'Guarded',
  roleDefinition: 'You inspect repositories in tests.',
  groups: ['read', 'command', 'mcp'],
  autoApprove: { read: true, command: true, mcp: true },
  commandRules: { allow: READ_ONLY_GIT }
}

/** The same rules in a mode whose commands run in the OS sandbox. */
export const sandboxedGuardedMode: ModeConfigInput = {
  ...guardedMode,
  slug: 'guarded-box',
  name: 'Guarded box',
  sandbox: { enabled: true, network: 'none' }
}

export const run = (command: string, extra: Record<string, unknown> = {}): FakeTurn => ({
  toolCalls: [{ name: 'execute_command', input: { command, ...extra } }]
})
export const done: FakeTurn = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

/**
 * Runs a task to its end; each approval item is answered by `answer` (approve or reject) and
 * collected. Returns the items asked, in order.
 */
export async function runTask(
  h: Harness,
  mode: string,
  answer: (item: ApprovalItem) => boolean
): Promise<ApprovalItem[]> {
  const asked: ApprovalItem[] = []
  const stop = h.services.approvals.subscribe((items) => {
    for (const item of items) {
      if (asked.some((seen) => seen.id === item.id)) continue
      asked.push(item)
      queueMicrotask(() =>
        h.services.approvals.decide({
          approvalId: item.id,
          outcome: answer(item) ? 'approve' : 'reject',
          scope: 'call'
        })
      )
    }
  })
  try {
    const task = await h.services.tasks.start({ text: 'inspect the repository', mode, workspace: h.workspace })
    await h.waitForEvent((e, id) => id === task.id && e.type === 'completion', 'the task to complete')
    return asked
  } finally {
    stop()
  }
}

/** Each execute_command result the model received, in order. */
export function commandResults(h: Harness): string[] {
  const texts: string[] = []
  for (const { event } of h.events) if (event.type === 'tool-result') texts.push(event.text)
  return texts
}
