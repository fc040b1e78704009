import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { StagedChange } from '../../../src/main/core/workspace'
import { tempWorkspace, type TempWorkspace } from './fixtures'

let t: TempWorkspace
afterEach(() => t?.cleanup())

const lines = (n: number, edit: (i: number) => string = (i) => `line ${i}`): string =>
  Array.from({ length: n }, (_, k) => edit(k + 1)).join('\n') + '\n'
const ORIGINAL = lines(40)
const PROPOSED = lines(40, (i) => (i === 5 ? 'FIVE' : i === 30 ? 'THIRTY' : `line ${i}`))
const disk = (rel: string): string => readFileSync(join(t.root, rel), 'utf8')

async function stageModify(path = 'f.txt', original = ORIGINAL, proposed = PROPOSED): Promise<StagedChange> {
  return t.workspace.changes.stage({
    taskId: 'task1',
    toolName: 'apply_diff',
    change: { path, kind: 'modify', original, proposed }
  })
}

describe('ChangeStore', () => {
  it('stages without touching the disk, then writes everything on accept', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const events: string[] = []
    t.workspace.changes.subscribe((c) => events.push(c.status))
    const staged = await stageModify()
    expect(staged).toMatchObject({ status: 'pending', displayPath: 'f.txt', outsideWorkspace: false })
    expect(staged.hunks).toHaveLength(2)
    expect(disk('f.txt')).toBe(ORIGINAL)
    const outcome = await t.workspace.changes.accept(staged.id)
    expect(outcome.status).toBe('applied')
    expect(disk('f.txt')).toBe(PROPOSED)
    expect(events).toEqual(['pending', 'accepted'])
  })

  it('writes only the accepted hunks and tells the model which were left out', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const staged = await stageModify()
    const outcome = await t.workspace.changes.accept(staged.id, { hunkIds: ['h2'] })
    expect(disk('f.txt')).toBe(lines(40, (i) => (i === 30 ? 'THIRTY' : `line ${i}`)))
    expect(outcome.message).toMatch(/accepted 1 of 2 hunks/)
    expect(outcome.change.acceptedHunkIds).toEqual(['h2'])
  })

  it('reports the user edits to the model as a diff from the proposal', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const staged = await stageModify()
    const edited = PROPOSED.replace('FIVE', 'five (user)')
    const outcome = await t.workspace.changes.accept(staged.id, { editedContent: edited })
    expect(disk('f.txt')).toBe(edited)
    expect(outcome.message).toContain('-FIVE\n+five (user)')
    expect(outcome.change.userEdits).toContain('+five (user)')
  })

  it('rejecting leaves the disk untouched and records the reason', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const staged = await stageModify()
    const rejected = t.workspace.changes.reject(staged.id, 'wrong approach')
    expect(rejected).toMatchObject({ status: 'rejected', rejectReason: 'wrong approach' })
    expect(disk('f.txt')).toBe(ORIGINAL)
    await expect(t.workspace.changes.accept(staged.id)).rejects.toThrow(/rejected/)
  })

  it('re-applies onto a file edited elsewhere since the proposal', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const staged = await stageModify()
    writeFileSync(join(t.root, 'f.txt'), 'header added by the user\n' + ORIGINAL)
    const outcome = await t.workspace.changes.accept(staged.id)
    expect(outcome.status).toBe('reapplied')
    expect(disk('f.txt')).toBe('header added by the user\n' + PROPOSED)
    expect(outcome.message).toMatch(/changed on disk/)
  })

  it('reports a conflict and writes nothing when the changed lines were edited on disk', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL })
    const staged = await stageModify()
    const theirs = ORIGINAL.replace('line 30\n', 'line 30 edited\n')
    writeFileSync(join(t.root, 'f.txt'), theirs)
    const outcome = await t.workspace.changes.accept(staged.id)
    expect(outcome.status).toBe('conflict')
    expect(outcome.change.conflict).toMatch(/h2/)
    expect(disk('f.txt')).toBe(theirs)
  })

  it('does not overwrite a file someone created after a create was proposed', async () => {
    t = await tempWorkspace()
    const staged = await t.workspace.changes.stage({
      taskId: 't',
      toolName: 'write_to_file',
      change: { path: 'new.txt', kind: 'create', original: null, proposed: 'mine\n' }
    })
    writeFileSync(join(t.root, 'new.txt'), 'theirs\n')
    expect((await t.workspace.changes.accept(staged.id)).status).toBe('conflict')
    expect(disk('new.txt')).toBe('theirs\n')
  })

  it('keeps CRLF when the reviewer edits in an LF editor', async () => {
    t = await tempWorkspace({ 'w.txt': 'a\r\nb\r\n' })
    const staged = await stageModify('w.txt', 'a\r\nb\r\n', 'a\r\nB\r\n')
    await t.workspace.changes.accept(staged.id, { editedContent: 'a\nB!\n' })
    expect(disk('w.txt')).toBe('a\r\nB!\r\n')
  })

  it('deletes and moves files, and reverts both', async () => {
    t = await tempWorkspace({ 'gone.txt': 'bye\n', 'old/name.txt': 'x\n' })
    const del = await t.workspace.changes.stage({
      taskId: 't',
      toolName: 'apply_patch',
      change: { path: 'gone.txt', kind: 'delete', original: 'bye\n', proposed: null }
    })
    const move = await t.workspace.changes.stage({
      taskId: 't',
      toolName: 'apply_patch',
      change: { path: 'old/name.txt', kind: 'move', moveTo: 'new/name.txt', original: 'x\n', proposed: 'y\n' }
    })
    await t.workspace.changes.accept(del.id)
    await t.workspace.changes.accept(move.id)
    expect(existsSync(join(t.root, 'gone.txt'))).toBe(false)
    expect(existsSync(join(t.root, 'old/name.txt'))).toBe(false)
    expect(disk('new/name.txt')).toBe('y\n')
    expect((await t.workspace.changes.revert(del.id)).status).toBe('reverted')
    expect((await t.workspace.changes.revert(move.id)).status).toBe('reverted')
    expect(disk('gone.txt')).toBe('bye\n')
    expect(disk('old/name.txt')).toBe('x\n')
    expect(existsSync(join(t.root, 'new/name.txt'))).toBe(false)
  })

  it('reverts an accepted change, keeping later unrelated edits, and refuses when they overlap', async () => {
    t = await tempWorkspace({ 'f.txt': ORIGINAL, 'g.txt': ORIGINAL })
    const a = await stageModify('f.txt')
    const b = await stageModify('g.txt')
    await t.workspace.changes.accept(a.id)
    await t.workspace.changes.accept(b.id)
    writeFileSync(join(t.root, 'f.txt'), PROPOSED + 'appended later\n')
    expect((await t.workspace.changes.revert(a.id)).status).toBe('reverted')
    expect(disk('f.txt')).toBe(ORIGINAL + 'appended later\n')
    writeFileSync(join(t.root, 'g.txt'), PROPOSED.replace('THIRTY', 'THIRTY!'))
    const refused = await t.workspace.changes.revert(b.id)
    expect(refused.status).toBe('conflict')
    expect(disk('g.txt')).toBe(PROPOSED.replace('THIRTY', 'THIRTY!'))
  })

  it('flags proposals for paths outside the workspace and protected paths', async () => {
    t = await tempWorkspace({}, { isProtected: (rel) => rel === 'AGENTS.md' })
    const outside = await t.workspace.changes.stage({
      taskId: 't',
      toolName: 'write_to_file',
      change: { path: '../outside/x.txt', kind: 'create', original: null, proposed: 'x' }
    })
    const guarded = await t.workspace.changes.stage({
      taskId: 't',
      toolName: 'write_to_file',
      change: { path: 'AGENTS.md', kind: 'create', original: null, proposed: 'x' }
    })
    expect(outside.outsideWorkspace).toBe(true)
    expect(guarded.protected).toBe(true)
    expect(t.workspace.changes.list({ taskId: 't', status: 'pending' })).toHaveLength(2)
  })
})

describe('an approved edit cannot be redirected out of the workspace', () => {
  it('a folder swapped for a link out between proposal and acceptance: nothing is written outside', async () => {
    t = await tempWorkspace({ 'src/app.ts': ORIGINAL })
    const staged = await stageModify('src/app.ts')
    // The attacker (a command the user approved, a build script) swaps the folder for a link.
    writeFileSync(join(t.outside, 'app.ts'), ORIGINAL)
    renameSync(join(t.root, 'src'), join(t.root, 'src-moved'))
    symlinkSync(t.outside, join(t.root, 'src'))
    const outcome = await t.workspace.changes.accept(staged.id)
    expect(outcome.status).toBe('conflict')
    expect(outcome.message).toMatch(/leads outside the workspace/)
    expect(readFileSync(join(t.outside, 'app.ts'), 'utf8')).toBe(ORIGINAL)
  })

  it('the file swapped for a link out: the write refuses instead of following it', async () => {
    t = await tempWorkspace({ 'config.json': ORIGINAL })
    const staged = await stageModify('config.json')
    writeFileSync(join(t.outside, 'authorized_keys'), ORIGINAL)
    rmSync(join(t.root, 'config.json'))
    symlinkSync(join(t.outside, 'authorized_keys'), join(t.root, 'config.json'))
    const outcome = await t.workspace.changes.accept(staged.id)
    expect(outcome.status).toBe('conflict')
    expect(readFileSync(join(t.outside, 'authorized_keys'), 'utf8')).toBe(ORIGINAL)
  })

  it('a created file whose new folder is a link out by then is not created outside', async () => {
    t = await tempWorkspace({})
    const staged = await t.workspace.changes.stage({
      taskId: 't',
      toolName: 'write_to_file',
      change: { path: 'gen/out.txt', kind: 'create', original: null, proposed: 'payload\n' }
    })
    symlinkSync(t.outside, join(t.root, 'gen'))
    const outcome = await t.workspace.changes.accept(staged.id)
    expect(outcome.status).toBe('conflict')
    expect(existsSync(join(t.outside, 'out.txt'))).toBe(false)
  })

  it('the file swapped for a link to a protected file inside (a git hook): the write refuses instead of following it', async () => {
    t = await tempWorkspace({ 'build.sh': ORIGINAL, '.git/hooks/pre-commit': ORIGINAL })
    const staged = await stageModify('build.sh')
    expect(staged.protected).toBe(false)
    rmSync(join(t.root, 'build.sh'))
    symlinkSync(join(t.root, '.git', 'hooks', 'pre-commit'), join(t.root, 'build.sh'))
    const outcome = await t.workspace.changes.accept(staged.id)
    expect(outcome.status).toBe('conflict')
    expect(outcome.message).toMatch(/protected/)
    expect(disk('.git/hooks/pre-commit')).toBe(ORIGINAL)
  })

  it('a link that stays inside is written through, and the result names the file actually written', async () => {
    t = await tempWorkspace({ 'real/notes.md': ORIGINAL })
    symlinkSync(join(t.root, 'real'), join(t.root, 'docs'))
    const staged = await stageModify('docs/notes.md')
    const outcome = await t.workspace.changes.accept(staged.id)
    expect(outcome.status).toBe('applied')
    expect(disk('real/notes.md')).toBe(PROPOSED)
    expect(outcome.message).toContain('real/notes.md')
  })
})
