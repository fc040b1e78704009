import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { askOnTerminal } from '../../src/cli/approval-prompt'
import type { ApprovalItem } from '../../src/shared/contract/approvals'
import { computeHunks } from '../../src/shared/diff/hunks'

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

  it('shows a new file’s hunk with as many lines in its header as it shows, and no phantom row for the final newline', async () => {
    const item: ApprovalItem = {
      id: 'a2',
      taskId: 't1',
      taskTitle: 'add a file',
      kind: 'edit',
      mode: 'code',
      summary: 'Create notes.md',
      rule: 'ask',
      reason: 'edits ask',
      createdAt: 0,
      changes: [
        {
          id: 'c1',
          taskId: 't1',
          callId: 'k1',
          path: 'notes.md',
          operation: 'create',
          original: '',
          proposed: 'one\ntwo\n',
          hunks: computeHunks('', 'one\ntwo\n'),
          status: 'proposed',
          auto: false,
          createdAt: 0
        }
      ]
    }
    const screen = new PassThrough()
    let shown = ''
    screen.on('data', (chunk: Buffer) => (shown += chunk.toString()))
    await askOnTerminal(item, { ask: async () => 'n', close: () => {} }, screen)
    expect(shown).toContain('create notes.md\n@@ -0,0 +1,2 @@\n+one\n+two\n')
    expect(shown).not.toMatch(/^\+$/m)
  })

  it('says a mistake-limit pause once, with its rule, and takes guidance text', async () => {
    const text = 'The model made 3 mistakes in a row (limit 3). Give it guidance or stop here.'
    const item: ApprovalItem = {
      id: 'a3',
      taskId: 't1',
      taskTitle: 'x',
      kind: 'mistake-limit',
      mode: 'code',
      summary: text,
      rule: 'mistake-limit',
      reason: text,
      createdAt: 0
    }
    const screen = new PassThrough()
    let shown = ''
    screen.on('data', (chunk: Buffer) => (shown += chunk.toString()))
    const decision = await askOnTerminal(item, { ask: async () => 'read notes.md first', close: () => {} }, screen)
    expect(shown.split('mistakes in a row')).toHaveLength(2)
    expect(shown).toContain('[mistake-limit]')
    expect(decision).toMatchObject({ outcome: 'approve', reason: 'read notes.md first' })
  })
})
