import { describe, expect, it } from 'vitest'
import type { ChangeView } from '../../../src/shared/contract/approvals'
import { provenanceOf } from '../../../src/renderer/src/features/review/change-provenance'

const change = (extra: Partial<ChangeView>): ChangeView =>
  ({ id: 'c1', path: 'src/a.ts', callId: 'call-1', ...extra }) as ChangeView
const turns = new Map([['call-1', { turn: 2, text: 'Fix the tests' }]])

describe('provenanceOf', () => {
  it("names a tool's change in the chat card's words and keeps the raw tool name for hover", () => {
    expect(provenanceOf(change({ tool: 'write_to_file' }), turns)).toEqual({
      turn: 'Turn 2 · “Fix the tests”',
      source: 'Wrote',
      tool: 'write_to_file',
      putBack: false
    })
    expect(provenanceOf(change({ tool: 'apply_diff' }), turns).source).toBe('Edited')
    expect(provenanceOf(change({ tool: 'mcp_fs_write' }), turns).source).toBe('Used mcp_fs_write')
  })

  it('labels restores, reverts and command edits as before', () => {
    expect(provenanceOf(change({ tool: 'restore_checkpoint' }), turns)).toEqual({
      turn: null,
      source: 'Restore',
      putBack: true
    })
    expect(provenanceOf(change({ tool: 'execute_command', byCommand: 'sed -i s/a/b/ a.ts' }), turns).source).toBe(
      'Command: sed -i s/a/b/ a.ts'
    )
  })
})
