import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { askOnTerminal } from '../../src/cli/approval-prompt'
import type { ApprovalItem } from '../../src/shared/contract/approvals'

describe('the terminal approval prompt', () => {
  it('shows what the model wrote with its control characters visible, so it cannot paint over the request', async () => {
    const item: ApprovalItem = {
      id: 'a1',
      taskId: 't1',
      taskTitle: 'clean up',
      kind: 'tool',
      mode: 'code',
      summary: 'Run rm -rf ~/important \x1b[2K\r\x1b[1ARun ls -la \u202e',
      rule: 'ask',
      reason: 'the mode asks for commands \x1b[8m',
      createdAt: 0
    }
    const screen = new PassThrough()
    let shown = ''
    screen.on('data', (chunk: Buffer) => (shown += chunk.toString()))
    const prompts: string[] = []
    const decision = await askOnTerminal(item, { ask: async (p) => (prompts.push(p), 'n'), close: () => {} }, screen)
    expect(decision).toMatchObject({ outcome: 'reject' })
    expect(shown + prompts.join('')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/)
    expect(shown).toContain('Run rm -rf ~/important \\x1b[2K\\r\\x1b[1ARun ls -la \\u202e')
  })
})
