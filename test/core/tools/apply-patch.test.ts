import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { applyPatchExecutor } from '../../../src/main/core/tools/apply-patch'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

let t: TempWorkspace
afterEach(() => t?.cleanup())
const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`

describe('apply_patch', () => {
  it('proposes add, delete, update and move as separate changes; accepting them all applies the patch', async () => {
    t = await tempWorkspace({ 'src/a.ts': 'one\r\ntwo\r\n', 'old.txt': 'keep\nchange\n', 'gone.txt': 'bye\n' })
    const result = await applyPatchExecutor.propose(
      {
        patch: patch(
          '*** Add File: docs/new.md\n+# New\n*** Delete File: gone.txt\n*** Update File: src/a.ts\n@@\n one\n-two\n+TWO\n*** Update File: old.txt\n*** Move to: moved/new.txt\n@@\n keep\n-change\n+changed'
        )
      },
      ctxFor(t.workspace)
    )
    if (!result.ok) throw new Error(textOf(result.output))
    expect(result.changes.map((c) => `${c.kind} ${c.path}${c.moveTo ? ' -> ' + c.moveTo : ''}`)).toEqual([
      'create docs/new.md',
      'delete gone.txt',
      'modify src/a.ts',
      'move old.txt -> moved/new.txt'
    ])
    expect(result.changes[2].proposed).toBe('one\r\nTWO\r\n')
    expect(existsSync(join(t.root, 'docs/new.md'))).toBe(false)
    for (const change of result.changes) {
      const staged = await t.workspace.changes.stage({ taskId: 't', toolName: 'apply_patch', change })
      expect((await t.workspace.changes.accept(staged.id)).status).toBe('applied')
    }
    expect(readFileSync(join(t.root, 'docs/new.md'), 'utf8')).toBe('# New\n')
    expect(existsSync(join(t.root, 'gone.txt'))).toBe(false)
    expect(readFileSync(join(t.root, 'src/a.ts'), 'utf8')).toBe('one\r\nTWO\r\n')
    expect(readFileSync(join(t.root, 'moved/new.txt'), 'utf8')).toBe('keep\nchanged\n')
    expect(existsSync(join(t.root, 'old.txt'))).toBe(false)
  })

  it('proposes nothing when any hunk fails, naming the file and closest match', async () => {
    t = await tempWorkspace({ 'a.txt': 'alpha\nbeta\n', 'b.txt': 'x\n' })
    const result = await applyPatchExecutor.propose(
      { patch: patch('*** Update File: b.txt\n@@\n-x\n+y\n*** Update File: a.txt\n@@\n-betaa\n+B') },
      ctxFor(t.workspace)
    )
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(textOf(result.output)).toMatch(/Failed to find expected lines in a\.txt.*Closest match: lines 2-2/s)
    expect(textOf(result.output)).toMatch(/Nothing was changed/)
  })

  it('rejects malformed patches and ignored paths', async () => {
    t = await tempWorkspace({ '.modusignore': 'secret.txt\n', 'secret.txt': 's\n' })
    const bad = await applyPatchExecutor.propose({ patch: 'no header' }, ctxFor(t.workspace))
    expect(!bad.ok && textOf(bad.output)).toMatch(
      /invalid patch: The first line of the patch must be '\*\*\* Begin Patch'/
    )
    const ignored = await applyPatchExecutor.propose(
      { patch: patch('*** Delete File: secret.txt') },
      ctxFor(t.workspace)
    )
    expect(!ignored.ok && textOf(ignored.output)).toMatch(/blocked by \.modusignore/)
  })
})
