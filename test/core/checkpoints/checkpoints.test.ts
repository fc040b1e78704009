import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCheckpointService, type WorkspaceCheckpoints } from '../../../src/main/core/checkpoints'
import { cleanup, read, tempDir, userGit, userRepository, userState, write } from './support/repo'

const dirs: string[] = []
afterEach(() => cleanup(...dirs.splice(0)))

function setup(options: { root?: string; maxFileBytes?: number; maxWorkspaceBytes?: number } = {}) {
  const root = options.root ?? userRepository()
  const data = tempDir('modus-cp-data-')
  dirs.push(root, data)
  const failures: string[] = []
  const service = createCheckpointService({
    dir: join(data, 'checkpoints'),
    limits: () => ({
      maxFileBytes: options.maxFileBytes ?? 5 * 1024 * 1024,
      maxWorkspaceBytes: options.maxWorkspaceBytes ?? 1024 ** 3
    }),
    onFailure: (_task, message) => failures.push(message)
  })
  return { root, data, service, checkpoints: service.forWorkspace(root), failures }
}

/** A command as the terminal runs it: a real shell process writing in the folder. */
const shell = (root: string, script: string) => async () => execFileSync('sh', ['-c', script], { cwd: root })

/** Writes what a restore plan asks (the review does this file by file in the app). */
async function applyPlan(checkpoints: WorkspaceCheckpoints, taskId: string, markerId: string) {
  const plan = await checkpoints.planRestore(taskId, markerId)
  for (const file of plan) {
    const full = join(checkpoints.root, file.path)
    await checkpoints.recordWrite(taskId, full, async () => {
      if (file.target === null) rmSync(full, { force: true })
      else {
        write(checkpoints.root, file.path, file.target)
        if (file.executable) chmodSync(full, 0o755)
      }
    })
  }
  return plan
}

describe("checkpoints in a real repository, without touching the user's git", () => {
  it("restores the files an edit and a command changed, created and deleted; the user's git is byte for byte as it was", async () => {
    const { root, checkpoints, failures } = setup()
    const before = userState(root)
    const turn1 = await checkpoints.mark('t1', 'turn 1')
    await checkpoints.recordWrite('t1', join(root, 'src/app.ts'), async () =>
      write(root, 'src/app.ts', 'export const app = 3 // the agent\n')
    )
    const { capture } = await checkpoints.aroundCommand(
      't1',
      shell(
        root,
        'echo generated > gen.txt && rm old.txt && echo more >> tracked.txt && mkdir -p build && echo x > build/out.js && echo y > debug.log'
      )
    )
    expect(capture.changed.sort()).toEqual(['gen.txt', 'old.txt', 'tracked.txt'])
    expect(failures).toEqual([])
    expect((await checkpoints.markers('t1'))[0]).toMatchObject({ id: turn1.id, label: 'turn 1', changedFiles: 4 })

    const plan = await applyPlan(checkpoints, 't1', turn1.id)
    expect(plan.map((f) => [f.path, f.conflict])).toEqual([
      ['gen.txt', undefined],
      ['old.txt', undefined],
      ['src/app.ts', undefined],
      ['tracked.txt', undefined]
    ])
    expect(existsSync(join(root, 'gen.txt'))).toBe(false)
    expect(read(root, 'old.txt')).toBe('to be deleted\n')
    expect(read(root, 'src/app.ts')).toBe('export const app = 2 // staged by the user\n')
    expect(read(root, 'tracked.txt')).toBe('one\ntwo\nthree\nfour (unstaged, the user)\n')
    // Ignored output of the command is not Modus's to restore.
    expect(read(root, 'build/out.js')).toBe('x\n')
    rmSync(join(root, 'build'), { recursive: true })
    rmSync(join(root, 'debug.log'))
    const after = userState(root)
    expect(after.porcelain).toBe(before.porcelain)
    expect(after.index.equals(before.index)).toBe(true)
    expect(after.gitDir).toEqual(before.gitDir)
  })

  it("a restore is itself undoable: restoring to before the restore brings the agent's version back", async () => {
    const { root, checkpoints } = setup()
    const turn = await checkpoints.mark('t1', 'turn 1')
    await checkpoints.aroundCommand('t1', shell(root, 'printf "agent\\n" > tracked.txt'))
    const beforeRestore = await checkpoints.mark('t1', 'before restore')
    await applyPlan(checkpoints, 't1', turn.id)
    expect(read(root, 'tracked.txt')).toBe('one\ntwo\nthree\nfour (unstaged, the user)\n')
    await applyPlan(checkpoints, 't1', beforeRestore.id)
    expect(read(root, 'tracked.txt')).toBe('agent\n')
  })

  it('a file the user changed after the agent wrote it is a conflict, not silently overwritten', async () => {
    const { root, checkpoints } = setup()
    const turn = await checkpoints.mark('t1', 'turn 1')
    await checkpoints.aroundCommand('t1', shell(root, 'echo agent > tracked.txt && echo agent > gen.txt'))
    write(root, 'tracked.txt', 'the user edited this afterwards\n')
    const plan = await checkpoints.planRestore('t1', turn.id)
    expect(plan.find((f) => f.path === 'tracked.txt')?.conflict).toMatch(/changed after Modus last wrote it/)
    expect(plan.find((f) => f.path === 'gen.txt')?.conflict).toBeUndefined()
    expect(plan.find((f) => f.path === 'tracked.txt')?.current?.toString()).toBe('the user edited this afterwards\n')
  })

  it('captures nested repositories and submodules as files, leaving their .git alone', async () => {
    const { root, checkpoints } = setup()
    const nested = join(root, 'vendor/lib')
    write(root, 'vendor/lib/lib.c', 'int lib;\n')
    userGit(nested, 'init', '-q')
    userGit(nested, 'add', '-A')
    userGit(nested, 'commit', '-q', '-m', 'nested')
    write(root, 'fresh/empty-repo.txt', 'a repository without commits\n')
    userGit(join(root, 'fresh'), 'init', '-q')
    const nestedBefore = userState(nested)
    const turn = await checkpoints.mark('t1', 'turn 1')
    const { capture } = await checkpoints.aroundCommand(
      't1',
      shell(root, 'echo changed > vendor/lib/lib.c && echo new > vendor/lib/new.c && echo x > fresh/empty-repo.txt')
    )
    expect(capture.failure).toBeUndefined()
    expect(capture.changed.sort()).toEqual(['fresh/empty-repo.txt', 'vendor/lib/lib.c', 'vendor/lib/new.c'])
    await applyPlan(checkpoints, 't1', turn.id)
    expect(read(root, 'vendor/lib/lib.c')).toBe('int lib;\n')
    expect(existsSync(join(root, 'vendor/lib/new.c'))).toBe(false)
    expect(read(root, 'fresh/empty-repo.txt')).toBe('a repository without commits\n')
    expect(statSync(join(root, 'vendor/lib/.git')).isDirectory()).toBe(true)
    expect(userState(nested).gitDir).toEqual(nestedBefore.gitDir)
  })

  it('honours .gitignore, .git/info/exclude and .modusignore; files over the size limit are skipped and listed', async () => {
    const { root, checkpoints } = setup({ maxFileBytes: 1000 })
    write(root, '.modusignore', 'secrets/\n')
    write(root, '.git/info/exclude', 'local-only.txt\n')
    const turn = await checkpoints.mark('t1', 'turn 1')
    const { capture } = await checkpoints.aroundCommand(
      't1',
      shell(
        root,
        'mkdir -p secrets && echo s > secrets/key && echo l > local-only.txt && echo i > x.log && head -c 5000 /dev/zero > big.bin && echo small > small.txt'
      )
    )
    expect(capture.changed).toEqual(['small.txt'])
    expect(capture.skipped).toEqual([{ path: 'big.bin', size: 5000 }])
    expect((await checkpoints.planRestore('t1', turn.id)).map((f) => f.path)).toEqual(['small.txt'])
  })

  it('a file a command replaced with a link or a folder is captured as deleted, and the restore plan brings its content back', async () => {
    const { root, checkpoints } = setup()
    const turn = await checkpoints.mark('t1', 'turn 1')
    const { capture } = await checkpoints.aroundCommand(
      't1',
      shell(root, 'rm tracked.txt && ln -s notes.md tracked.txt && rm old.txt && mkdir old.txt')
    )
    expect(capture.changed.sort()).toEqual(['old.txt', 'tracked.txt'])
    const plan = await checkpoints.planRestore('t1', turn.id)
    expect(plan.map((f) => [f.path, f.target?.toString(), f.conflict])).toEqual([
      ['old.txt', 'to be deleted\n', undefined],
      ['tracked.txt', 'one\ntwo\nthree\nfour (unstaged, the user)\n', undefined]
    ])
  })

  it('keeps byte-exact content and the executable bit (CRLF, binary, .gitattributes conversions ignored)', async () => {
    const { root, checkpoints } = setup()
    write(root, '.gitattributes', '* text=auto eol=lf\n')
    const crlf = Buffer.from('a\r\nb\r\n')
    const binary = Buffer.from([0, 1, 2, 255, 13, 10, 0])
    write(root, 'win.txt', crlf)
    write(root, 'data.bin', binary)
    write(root, 'run.sh', '#!/bin/sh\necho hi\n')
    chmodSync(join(root, 'run.sh'), 0o755)
    const turn = await checkpoints.mark('t1', 'turn 1')
    await checkpoints.aroundCommand('t1', shell(root, 'rm win.txt data.bin run.sh'))
    await applyPlan(checkpoints, 't1', turn.id)
    expect(readFileSync(join(root, 'win.txt')).equals(crlf)).toBe(true)
    expect(readFileSync(join(root, 'data.bin')).equals(binary)).toBe(true)
    expect(statSync(join(root, 'run.sh')).mode & 0o111).not.toBe(0)
  })

  it('"changes of this task": one diff per file from the task start to now; other tasks are left out', async () => {
    const { root, checkpoints } = setup()
    await checkpoints.mark('t1', 'turn 1')
    await checkpoints.recordWrite('t1', join(root, 'a.txt'), async () => write(root, 'a.txt', 'first\n'))
    await checkpoints.mark('t1', 'turn 2')
    await checkpoints.recordWrite('t1', join(root, 'a.txt'), async () => write(root, 'a.txt', 'second\n'))
    await checkpoints.aroundCommand('t2', shell(root, 'echo other > other.txt'))
    const changes = await checkpoints.taskChanges('t1')
    expect(changes.map((c) => [c.path, c.target, c.current?.toString()])).toEqual([['a.txt', null, 'second\n']])
  })

  it('works in a folder that is not a git repository, and reports a command snapshot that fails', async () => {
    const root = tempDir('modus-cp-plain-')
    write(root, 'a.txt', 'a\n')
    const { checkpoints, failures } = setup({ root })
    const turn = await checkpoints.mark('t1', 'turn 1')
    await checkpoints.aroundCommand('t1', shell(root, 'echo b > a.txt'))
    await applyPlan(checkpoints, 't1', turn.id)
    expect(read(root, 'a.txt')).toBe('a\n')

    const missingGit = createCheckpointService({
      dir: join(tempDir('modus-cp-data-'), 'c'),
      gitPath: '/nonexistent/git',
      onFailure: (_t, m) => failures.push(m)
    })
    const { result, capture } = await missingGit.forWorkspace(root).aroundCommand('t1', async () => 'ran')
    expect(result).toBe('ran')
    expect(capture.failure).toMatch(/git is not installed/)
    expect(failures.at(-1)).toMatch(/git is not installed/)
    expect(await missingGit.forWorkspace(root).failures('t1')).toEqual([capture.failure])
  })

  it('stores each distinct content once, compressed; pruning a task or exceeding the cap frees its space', async () => {
    const { root, checkpoints } = setup()
    const text = 'the same line again\n'.repeat(5000)
    for (let i = 0; i < 20; i++) {
      await checkpoints.mark('t1', `turn ${i}`)
      await checkpoints.recordWrite('t1', join(root, 'same.txt'), async () =>
        write(root, 'same.txt', i % 2 ? text : `${text}x`)
      )
    }
    const usage = await checkpoints.usage()
    expect(usage.blobBytes).toBeLessThan(2 * 1024)
    await checkpoints.pruneTask('t1')
    expect((await checkpoints.usage()).blobBytes).toBe(0)
    expect(await checkpoints.markers('t1')).toEqual([])

    const capped = setup({ maxWorkspaceBytes: 1 })
    await capped.checkpoints.mark('old', 'turn')
    await capped.checkpoints.aroundCommand('old', shell(capped.root, 'echo a > a.txt'))
    await capped.checkpoints.mark('current', 'turn')
    await capped.checkpoints.recordWrite('current', join(capped.root, 'b.txt'), async () =>
      write(capped.root, 'b.txt', 'b\n')
    )
    await capped.checkpoints.enforceCap('current')
    expect(await capped.checkpoints.markers('old')).toEqual([])
    expect(await capped.checkpoints.markers('current')).toHaveLength(1)
    expect((await capped.checkpoints.usage()).gitBytes).toBe(0)
  })

  it('lists every workspace with its space, and prunes a task across workspaces', async () => {
    const { root, service, checkpoints } = setup()
    await checkpoints.mark('t1', 'turn')
    await checkpoints.recordWrite('t1', join(root, 'a.txt'), async () => writeFileSync(join(root, 'a.txt'), 'a'))
    const usage = await service.usage()
    expect(usage).toEqual([{ workspace: root, bytes: expect.any(Number) }])
    expect(usage[0].bytes).toBeGreaterThan(0)
    await service.pruneTask('t1')
    expect(await checkpoints.markers('t1')).toEqual([])
  })
})
