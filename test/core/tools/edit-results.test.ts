import { afterEach, describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { applyDiffExecutor } from '../../../src/main/core/tools/apply-diff'
import { editToolOutput } from '../../../src/main/core/tools/edit-results'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

let t: TempWorkspace
afterEach(() => t?.cleanup())

describe('edit tool results', () => {
  it('propose → stage → decide → one result for the model, from proposal to conflict', async () => {
    t = await tempWorkspace({ 'a.ts': 'let x = 1\nlet y = 2\n' })
    const diff = '<<<<<<< SEARCH\nlet y = 2\n=======\nlet y = 3\n>>>>>>> REPLACE'
    const proposal = await applyDiffExecutor.propose({ path: 'a.ts', diff }, ctxFor(t.workspace))
    if (!proposal.ok) throw new Error('expected a proposal')
    const staged = await t.workspace.changes.stage({ taskId: 't', toolName: 'apply_diff', change: proposal.changes[0] })
    const rejected = t.workspace.changes.reject(staged.id, 'keep y at 2')
    const out = editToolOutput(proposal.notes, [{ status: 'rejected', change: rejected }])
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('Block 1 of 1: applied to lines 2-2.\n\nThe user rejected the change to a.ts; nothing was written. Their reason: keep y at 2')

    const again = await t.workspace.changes.stage({ taskId: 't', toolName: 'apply_diff', change: proposal.changes[0] })
    writeFileSync(join(t.root, 'a.ts'), 'let x = 1\nlet y = 20\n')
    const conflict = await t.workspace.changes.accept(again.id)
    const failed = editToolOutput(proposal.notes, [conflict])
    expect(failed.isError).toBe(true)
    expect(textOf(failed)).toMatch(/Not written: a\.ts changed on disk/)
  })
})
