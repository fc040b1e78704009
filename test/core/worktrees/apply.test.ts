import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, symlinkSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createWorktreeApply } from '../../../src/main/core/worktrees/apply-service'
import { planApply } from '../../../src/main/core/worktrees/apply-plan'
import { readBranchFiles, type WorktreeLocation } from '../../../src/main/core/worktrees/apply-read'
import { writePlan } from '../../../src/main/core/worktrees/apply-write'

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1'
}
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: GIT_ENV }).toString()
const lines = (...rows: string[]): string => rows.join('\n') + '\n'
const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`)

let root: string
let main: string
let base: string

/** A worktree on its own branch from the main tree's HEAD, as an isolated task gets one. */
function addWorktree(name: string): WorktreeLocation {
  const worktree = join(root, 'worktrees', name)
  git(main, 'worktree', 'add', '-q', '-b', `modus/${name}`, worktree, base)
  return { mainRoot: main, worktree, baseCommit: base }
}

/** What must stay byte-identical in the user's repository until (and after) an apply. */
const repoState = (): string =>
  [
    git(main, 'rev-parse', 'HEAD'),
    git(main, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'),
    readFileSync(join(main, '.git', 'index')).toString('base64')
  ].join('\n')

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'modus-apply-'))
  main = join(root, 'main')
  mkdirSync(main)
  git(main, 'init', '-q', '-b', 'main')
  writeFileSync(join(main, 'a.txt'), lines(...TEN))
  writeFileSync(join(main, 'b.txt'), 'to be deleted\n')
  git(main, 'add', '.')
  git(main, 'commit', '-q', '-m', 'base')
  base = git(main, 'rev-parse', 'HEAD').trim()
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('bringing an isolated task back', () => {
  it('reads committed and uncommitted work of the worktree against the base commit', async () => {
    const wt = addWorktree('one')
    writeFileSync(join(wt.worktree, 'a.txt'), lines('LINE 1', ...TEN.slice(1)))
    git(wt.worktree, 'commit', '-q', '-am', 'first line')
    writeFileSync(join(wt.worktree, 'a.txt'), lines('LINE 1', ...TEN.slice(1, 9), 'LINE 10'))
    writeFileSync(join(wt.worktree, 'new.txt'), 'created\n')
    rmSync(join(wt.worktree, 'b.txt'))
    const files = await readBranchFiles(wt)
    expect(files.map((f) => [f.path, f.base === null, f.branch === null])).toEqual([
      ['a.txt', false, false],
      ['b.txt', false, true],
      ['new.txt', true, false]
    ])
    const service = createWorktreeApply({ locate: async () => wt })
    const views = await service.changes('t1')
    expect(views.map((v) => [v.path, v.operation, v.hunks.length])).toEqual([
      ['a.txt', 'modify', 2],
      ['b.txt', 'delete', 1],
      ['new.txt', 'create', 1]
    ])
  })

  it('applies accepted hunks only, leaves the repository (HEAD, refs, index) untouched', async () => {
    const wt = addWorktree('one')
    writeFileSync(join(wt.worktree, 'a.txt'), lines('LINE 1', ...TEN.slice(1, 9), 'LINE 10'))
    writeFileSync(join(wt.worktree, 'new.txt'), 'created\n')
    rmSync(join(wt.worktree, 'b.txt'))
    const before = repoState()
    const service = createWorktreeApply({ locate: async () => wt })
    const views = await service.changes('t1')
    expect(repoState()).toBe(before)
    const a = views.find((v) => v.path === 'a.txt')!
    const result = await service.apply('t1', [
      { changeId: a.id, acceptedHunks: [a.hunks[1].id] },
      { changeId: views.find((v) => v.path === 'new.txt')!.id },
      { changeId: views.find((v) => v.path === 'b.txt')!.id }
    ])
    expect(result).toEqual({ written: ['a.txt', 'new.txt', 'b.txt'], conflicts: [] })
    expect(readFileSync(join(main, 'a.txt'), 'utf8')).toBe(lines(...TEN.slice(0, 9), 'LINE 10'))
    expect(readFileSync(join(main, 'new.txt'), 'utf8')).toBe('created\n')
    expect(existsSync(join(main, 'b.txt'))).toBe(false)
    expect(repoState()).toBe(before)
  })

  it('never overwrites local changes: a hunk on lines the user changed is a conflict, the others are written', async () => {
    const wt = addWorktree('one')
    writeFileSync(join(wt.worktree, 'a.txt'), lines('LINE 1', ...TEN.slice(1, 9), 'LINE 10'))
    writeFileSync(join(main, 'a.txt'), lines(...TEN.slice(0, 9), 'mine 10'))
    const service = createWorktreeApply({ locate: async () => wt })
    const [a] = await service.changes('t1')
    expect(a.conflict).toContain('h2')
    const result = await service.apply('t1', [{ changeId: a.id }])
    expect(result.written).toEqual(['a.txt'])
    expect(result.conflicts).toEqual([{ path: 'a.txt', hunks: ['h2'], reason: expect.stringContaining('You changed') }])
    expect(readFileSync(join(main, 'a.txt'), 'utf8')).toBe(lines('LINE 1', ...TEN.slice(1, 9), 'mine 10'))
  })

  it('two tasks edit the same line: applying one, the other shows the conflict and writes nothing', async () => {
    const one = addWorktree('one')
    const two = addWorktree('two')
    writeFileSync(join(one.worktree, 'a.txt'), lines('ONE', ...TEN.slice(1)))
    writeFileSync(join(two.worktree, 'a.txt'), lines('TWO', ...TEN.slice(1)))
    // Neither task sees the other's change.
    expect(readFileSync(join(two.worktree, 'a.txt'), 'utf8')).toBe(lines('TWO', ...TEN.slice(1)))
    const tasks: Record<string, WorktreeLocation> = { one, two }
    const service = createWorktreeApply({ locate: async (id) => tasks[id] ?? null })
    const [first] = await service.changes('one')
    expect((await service.apply('one', [{ changeId: first.id }])).written).toEqual(['a.txt'])
    const [second] = await service.changes('two')
    expect(second.conflict).toContain('h1')
    const result = await service.apply('two', [{ changeId: second.id }])
    expect(result.written).toEqual([])
    expect(result.conflicts[0]).toMatchObject({ path: 'a.txt', hunks: ['h1'] })
    expect(readFileSync(join(main, 'a.txt'), 'utf8')).toBe(lines('ONE', ...TEN.slice(1)))
  })

  it('a file that changes between the review and the write is left alone', async () => {
    const wt = addWorktree('one')
    writeFileSync(join(wt.worktree, 'a.txt'), lines('LINE 1', ...TEN.slice(1)))
    const files = await readBranchFiles(wt)
    const plan = planApply(files, [{ path: 'a.txt' }])
    writeFileSync(join(main, 'a.txt'), 'typed meanwhile\n')
    const outcome = await writePlan(main, plan)
    expect(outcome.written).toEqual([])
    expect(outcome.conflicts[0].reason).toContain('changed in your working tree')
    expect(readFileSync(join(main, 'a.txt'), 'utf8')).toBe('typed meanwhile\n')
  })

  it('does not write through a folder link that leads outside the workspace', async () => {
    const outside = join(root, 'outside')
    mkdirSync(outside)
    const wt = addWorktree('one')
    mkdirSync(join(wt.worktree, 'out'))
    writeFileSync(join(wt.worktree, 'out', 'x.txt'), 'x\n')
    symlinkSync(outside, join(main, 'out'))
    const service = createWorktreeApply({ locate: async () => wt })
    const views = await service.changes('t1')
    const result = await service.apply(
      't1',
      views.map((v) => ({ changeId: v.id }))
    )
    expect(result.written).toEqual([])
    expect(existsSync(join(outside, 'x.txt'))).toBe(false)
  })

  it('a task that ran in the main workspace has nothing to bring back', async () => {
    const service = createWorktreeApply({ locate: async () => null })
    await expect(service.changes('t1')).rejects.toThrow(/no worktree/)
  })
})
