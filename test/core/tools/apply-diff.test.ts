import { afterEach, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { applyDiffExecutor } from '../../../src/main/core/tools/apply-diff'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

let t: TempWorkspace
afterEach(() => t?.cleanup())
const block = (s: string, r: string, hint?: number) =>
  `<<<<<<< SEARCH\n${hint ? `:start_line:${hint}\n-------\n` : ''}${s}\n=======\n${r}\n>>>>>>> REPLACE`

describe('apply_diff', () => {
  it('proposes the edited file with a note per block, leaving the disk alone', async () => {
    t = await tempWorkspace({ 'a.ts': 'const a = 1\nconst b = 2\nconst c = 3\n' })
    const result = await applyDiffExecutor.propose(
      {
        path: 'a.ts',
        diff: [block('const a = 1', 'const a = 10', 1), block('const c = 3', 'const c = 30', 40)].join('\n')
      },
      ctxFor(t.workspace)
    )
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.changes[0]).toMatchObject({ kind: 'modify', proposed: 'const a = 10\nconst b = 2\nconst c = 30\n' })
    expect(result.notes[1]).toMatch(/Block 2 of 2: applied to lines 3-3 \(found at line 3, hint was 40\)/)
    expect(readFileSync(join(t.root, 'a.ts'), 'utf8')).toBe('const a = 1\nconst b = 2\nconst c = 3\n')
  })

  it('keeps a UTF-16 file UTF-16 through stage and accept', async () => {
    const u16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x = 1\r\ny = 2\r\n', 'utf16le')])
    t = await tempWorkspace({ 'u.txt': u16 })
    const result = await applyDiffExecutor.propose(
      { path: 'u.txt', diff: block('y = 2', 'y = 3') },
      ctxFor(t.workspace)
    )
    if (!result.ok) throw new Error(textOf(result.output))
    const staged = await t.workspace.changes.stage({ taskId: 't', toolName: 'apply_diff', change: result.changes[0] })
    await t.workspace.changes.accept(staged.id)
    expect(readFileSync(join(t.root, 'u.txt'))).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x = 1\r\ny = 3\r\n', 'utf16le')])
    )
  })

  it('reports partial application and the failed block with its closest candidate', async () => {
    t = await tempWorkspace({ 'a.ts': 'alpha()\nbeta()\ngamma()\n' })
    const result = await applyDiffExecutor.propose(
      { path: 'a.ts', diff: [block('alpha()', 'ALPHA()'), block('betta()\ngamma()', 'x')].join('\n') },
      ctxFor(t.workspace)
    )
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.notes.join('\n')).toMatch(/Block 2 of 2 FAILED: No match found.*Closest candidate: lines 2-3/s)
    expect(result.notes.join('\n')).toMatch(/Only 1 of 2 blocks applied/)
  })

  it('fails with every block error when nothing applies, and on a malformed diff or missing file', async () => {
    t = await tempWorkspace({ 'a.ts': 'alpha\n' })
    const none = await applyDiffExecutor.propose({ path: 'a.ts', diff: block('zzz', 'y') }, ctxFor(t.workspace))
    expect(!none.ok && textOf(none.output)).toMatch(/No SEARCH\/REPLACE block of the diff applied/)
    const bad = await applyDiffExecutor.propose(
      { path: 'a.ts', diff: '<<<<<<< SEARCH\nalpha\n>>>>>>> REPLACE' },
      ctxFor(t.workspace)
    )
    expect(!bad.ok && textOf(bad.output)).toMatch(/Diff block is malformed/)
    const missing = await applyDiffExecutor.propose({ path: 'nope.ts', diff: block('a', 'b') }, ctxFor(t.workspace))
    expect(!missing.ok && textOf(missing.output)).toMatch(/File not found: nope\.ts.*write_to_file/)
  })
})
