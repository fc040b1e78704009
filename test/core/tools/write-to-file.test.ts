import { afterEach, describe, expect, it } from 'vitest'
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { cleanWriteContent, writeToFileExecutor } from '../../../src/main/core/tools/write-to-file'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

let t: TempWorkspace
afterEach(() => t?.cleanup())

describe('write_to_file', () => {
  it('proposes a new file without writing it; accepting creates parent directories', async () => {
    t = await tempWorkspace()
    const result = await writeToFileExecutor.propose(
      { path: 'a/b/new.ts', content: 'export {}\n' },
      ctxFor(t.workspace)
    )
    expect(result).toEqual({
      ok: true,
      changes: [{ path: 'a/b/new.ts', kind: 'create', original: null, proposed: 'export {}\n' }],
      notes: []
    })
    expect(existsSync(join(t.root, 'a/b/new.ts'))).toBe(false)
    if (!result.ok) return
    const staged = await t.workspace.changes.stage({
      taskId: 't',
      toolName: 'write_to_file',
      change: result.changes[0]
    })
    await t.workspace.changes.accept(staged.id)
    expect(readFileSync(join(t.root, 'a/b/new.ts'), 'utf8')).toBe('export {}\n')
  })

  it('proposes a modification keeping the file CRLF line endings', async () => {
    t = await tempWorkspace({ 'w.txt': 'old\r\ntext\r\n' })
    const result = await writeToFileExecutor.propose({ path: 'w.txt', content: 'new\ntext\n' }, ctxFor(t.workspace))
    expect(result.ok && result.changes[0]).toMatchObject({
      kind: 'modify',
      original: 'old\r\ntext\r\n',
      proposed: 'new\r\ntext\r\n',
      format: { eol: 'crlf' }
    })
  })

  it('answers without a proposal when the content is unchanged, and refuses directories', async () => {
    t = await tempWorkspace({ 'same.txt': 'x\n', 'd/f': '' })
    const same = await writeToFileExecutor.propose({ path: 'same.txt', content: 'x\n' }, ctxFor(t.workspace))
    expect(!same.ok && textOf(same.output)).toMatch(/already has exactly this content/)
    const dir = await writeToFileExecutor.propose({ path: 'd', content: 'x' }, ctxFor(t.workspace))
    expect(!dir.ok && dir.output.isError).toBe(true)
  })

  it('strips a Markdown fence and read_file line numbers', () => {
    expect(cleanWriteContent('```ts\nconst a = 1\n```\n')).toBe('const a = 1\n')
    expect(cleanWriteContent('1 | a\n2 | b\n')).toBe('a\nb\n')
    expect(cleanWriteContent('a | b\n')).toBe('a | b\n')
  })
})
