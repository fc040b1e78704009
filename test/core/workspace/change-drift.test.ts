import { afterEach, describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempWorkspace, type TempWorkspace } from './fixtures'

// The review asks, while it waits, whether the file changed on disk since the proposal.

let t: TempWorkspace
afterEach(() => t?.cleanup())

const lines = (n: number, edit: (i: number) => string = (i) => `line ${i}`): string =>
  Array.from({ length: n }, (_, k) => edit(k + 1)).join('\n') + '\n'
const ORIGINAL = lines(40)
const PROPOSED = lines(40, (i) => (i === 5 ? 'FIVE' : `line ${i}`))

async function stage(proposed = PROPOSED) {
  return t.workspace.changes.stage({
    taskId: 'task1',
    toolName: 'write_to_file',
    change: { path: 'f.txt', kind: 'modify', original: ORIGINAL, proposed }
  })
}

describe('ChangeStore.drift', () => {
  it('is null while the file is as the proposal found it', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const staged = await stage()
    expect(await t.workspace.changes.drift(staged.id)).toBeNull()
  })

  it('tells a mergeable edit elsewhere in the file from a conflicting one', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const staged = await stage()
    writeFileSync(join(t.root, 'f.txt'), ORIGINAL.replace('line 30\n', 'line thirty\n'))
    expect(await t.workspace.changes.drift(staged.id)).toEqual({
      conflict: false,
      message: 'f.txt changed on disk since the change was proposed; accepting merges the change onto it'
    })
    writeFileSync(join(t.root, 'f.txt'), ORIGINAL.replace('line 5\n', 'line five\n'))
    const drift = await t.workspace.changes.drift(staged.id)
    expect(drift?.conflict).toBe(true)
    expect(drift?.message).toMatch(/f\.txt changed on disk since the change was proposed, and hunks h1 no longer apply/)
  })

  it('reports a deleted file as a conflict and says nothing once the change is decided', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const staged = await stage()
    const { rmSync } = await import('node:fs')
    rmSync(join(t.root, 'f.txt'))
    expect(await t.workspace.changes.drift(staged.id)).toEqual({
      conflict: true,
      message: 'f.txt was deleted since the change was proposed'
    })
    t.workspace.changes.reject(staged.id)
    expect(await t.workspace.changes.drift(staged.id)).toBeNull()
  })
})
