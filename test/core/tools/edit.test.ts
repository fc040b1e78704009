import { afterEach, describe, expect, it } from 'vitest'
import { editExecutor } from '../../../src/main/core/tools/edit'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

let t: TempWorkspace
afterEach(() => t?.cleanup())
const edit = (p: Partial<{ file_path: string; old_string: string; new_string: string; replace_all: boolean }>) =>
  editExecutor.propose(
    { file_path: 'a.txt', old_string: '', new_string: '', replace_all: false, ...p },
    ctxFor(t.workspace)
  )

describe('edit', () => {
  it('replaces a unique occurrence and reports the count', async () => {
    t = await tempWorkspace({ 'a.txt': 'one two three\n' })
    const result = await edit({ old_string: 'two', new_string: '2' })
    expect(result.ok && result.changes[0].proposed).toBe('one 2 three\n')
    expect(result.ok && result.notes[0]).toBe("Replaced 1 occurrence of 'old_string' in a.txt.")
  })

  it('needs replace_all for several occurrences, then replaces them all', async () => {
    t = await tempWorkspace({ 'a.txt': 'x x x\n' })
    const refused = await edit({ old_string: 'x', new_string: 'y' })
    expect(!refused.ok && textOf(refused.output)).toMatch(/Found 3 matches/)
    const all = await edit({ old_string: 'x', new_string: 'y', replace_all: true })
    expect(all.ok && all.changes[0].proposed).toBe('y y y\n')
    expect(all.ok && all.notes[0]).toMatch(/Replaced 3 occurrences/)
  })

  it('matches across CRLF line endings and keeps them; $ in new_string is literal', async () => {
    t = await tempWorkspace({ 'a.txt': 'a\r\nb\r\nc\r\n' })
    const result = await edit({ old_string: 'a\nb', new_string: 'A$&\nB' })
    expect(result.ok && result.changes[0].proposed).toBe('A$&\r\nB\r\nc\r\n')
  })

  it('explains missing text, identical strings, empty old_string and missing files', async () => {
    t = await tempWorkspace({ 'a.txt': 'abc\n' })
    expect(textOf(((await edit({ old_string: 'zzz', new_string: 'y' })) as any).output)).toMatch(
      /No match found for 'old_string' in a\.txt/
    )
    expect(textOf(((await edit({ old_string: 'abc', new_string: 'abc' })) as any).output)).toMatch(/identical/)
    expect(textOf(((await edit({ old_string: '', new_string: 'y' })) as any).output)).toMatch(/empty/)
    expect(textOf(((await edit({ file_path: 'no.txt', old_string: 'a', new_string: 'b' })) as any).output)).toMatch(
      /File not found/
    )
  })
})
