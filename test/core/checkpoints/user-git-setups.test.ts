import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createApprovalQueue } from '../../../src/main/core/approvals/approval-queue'
import { createCheckpointService } from '../../../src/main/core/checkpoints'
import { restoreToCheckpoint } from '../../../src/main/core/checkpoints/restore'
import { createWorkspace } from '../../../src/main/core/workspace'
import { cleanup, fingerprintGitDir, read, tempDir, userGit, userRepository, userState, write } from './support/repo'

/**
 * Checkpoints in the git setups users really have: a linked worktree, a submodule, a repository
 * with hooks, fsmonitor and a stash, Modus started with GIT_* variables pointing at the user's
 * repository (from inside a git hook or `git rebase -x`). Their git is never touched, whatever it is.
 */
const dirs: string[] = []
afterEach(() => cleanup(...dirs.splice(0)))

function service() {
  const data = tempDir('modus-cp-data-')
  dirs.push(data)
  const failures: string[] = []
  return {
    failures,
    service: createCheckpointService({ dir: join(data, 'checkpoints'), onFailure: (_t, m) => failures.push(m) })
  }
}
const sh = (root: string, script: string) => async () => execFileSync('sh', ['-c', script], { cwd: root })

describe("checkpoints and the user's own git setup", () => {
  it("a linked worktree: its changes are captured, the main repository's exclude file is honoured, nothing of either .git changes", async () => {
    const main = userRepository()
    const linked = join(tempDir('modus-cp-wt-'), 'feature')
    dirs.push(main, join(linked, '..'))
    userGit(main, 'worktree', 'add', '-q', '-b', 'feature', linked)
    write(main, '.git/info/exclude', 'local-secret.txt\n')
    const mainBefore = fingerprintGitDir(main)
    const linkedStatus = userGit(linked, '--no-optional-locks', 'status', '--porcelain')
    const { service: checkpoints, failures } = service()
    const workspace = checkpoints.forWorkspace(linked)
    const turn = await workspace.mark('t1', 'turn 1')
    const { capture } = await workspace.aroundCommand(
      't1',
      sh(linked, 'echo changed > tracked.txt && echo s > local-secret.txt && rm old.txt')
    )
    expect(failures).toEqual([])
    expect(capture.changed.sort()).toEqual(['old.txt', 'tracked.txt'])
    const plan = await workspace.planRestore('t1', turn.id)
    expect(plan.map((f) => [f.path, f.target?.toString() ?? null])).toEqual([
      ['old.txt', 'to be deleted\n'],
      ['tracked.txt', 'one\ntwo\nthree\n']
    ])
    expect(fingerprintGitDir(main)).toEqual(mainBefore)
    // The user's own view of the worktree: what the command did, and nothing of Modus's.
    expect(userGit(linked, '--no-optional-locks', 'status', '--porcelain')).toBe(
      `${linkedStatus} D old.txt\n M tracked.txt\n`
    )
  })

  it("a submodule: its files are captured and restored as files; the superproject's .git (with .git/modules) is byte for byte as it was", async () => {
    const upstream = tempDir('modus-cp-upstream-')
    dirs.push(upstream)
    userGit(upstream, 'init', '-q', '-b', 'main')
    write(upstream, 'lib.c', 'int lib;\n')
    userGit(upstream, 'add', '-A')
    userGit(upstream, 'commit', '-q', '-m', 'lib')
    const root = userRepository()
    dirs.push(root)
    userGit(root, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'deps/lib')
    userGit(root, 'commit', '-q', '-m', 'add submodule')
    expect(lstatSync(join(root, 'deps/lib/.git')).isFile()).toBe(true)
    const before = userState(root)
    const subStatus = userGit(join(root, 'deps/lib'), '--no-optional-locks', 'status', '--porcelain')
    const { service: checkpoints, failures } = service()
    const workspace = checkpoints.forWorkspace(root)
    const turn = await workspace.mark('t1', 'turn 1')
    const { capture } = await workspace.aroundCommand(
      't1',
      sh(root, 'echo changed > deps/lib/lib.c && echo new > deps/lib/new.c')
    )
    expect(failures).toEqual([])
    expect(capture.changed.sort()).toEqual(['deps/lib/lib.c', 'deps/lib/new.c'])
    const plan = await workspace.planRestore('t1', turn.id)
    for (const file of plan) {
      if (file.target === null) execFileSync('rm', [join(root, file.path)])
      else writeFileSync(join(root, file.path), file.target)
    }
    expect(read(root, 'deps/lib/lib.c')).toBe('int lib;\n')
    expect(existsSync(join(root, 'deps/lib/new.c'))).toBe(false)
    const after = userState(root)
    expect(after.porcelain).toBe(before.porcelain)
    expect(after.index.equals(before.index)).toBe(true)
    expect(after.gitDir).toEqual(before.gitDir)
    expect(userGit(join(root, 'deps/lib'), '--no-optional-locks', 'status', '--porcelain')).toBe(subStatus)
  })

  it("never runs the user's hooks or fsmonitor, never touches their stash, even with GIT_DIR and GIT_INDEX_FILE set to their repository", async () => {
    const root = userRepository()
    dirs.push(root)
    const ran = join(tempDir('modus-cp-hooks-'), 'ran.txt')
    dirs.push(join(ran, '..'))
    // A stash of the user's, then their hooks and an fsmonitor hook that would say so if run.
    write(root, 'stashed.txt', 'kept in the stash\n')
    userGit(root, 'stash', 'push', '-q', '--include-untracked', '-m', "the user's stash", '--', 'stashed.txt')
    const stashList = userGit(root, 'stash', 'list')
    const hook = `#!/bin/sh\necho "$0" >> ${ran}\n`
    for (const name of ['post-index-change', 'pre-commit', 'post-commit', 'reference-transaction', 'post-checkout']) {
      write(root, `.git/hooks/${name}`, hook)
      execFileSync('chmod', ['+x', join(root, '.git/hooks', name)])
    }
    write(root, 'fsmonitor.sh', hook)
    execFileSync('chmod', ['+x', join(root, 'fsmonitor.sh')])
    userGit(root, 'config', 'core.fsmonitor', join(root, 'fsmonitor.sh'))
    // Read without running the user's git (its status would run their fsmonitor hook itself).
    const before = { index: readFileSync(join(root, '.git', 'index')), gitDir: fingerprintGitDir(root) }
    const saved = {
      GIT_DIR: process.env.GIT_DIR,
      GIT_INDEX_FILE: process.env.GIT_INDEX_FILE,
      GIT_WORK_TREE: process.env.GIT_WORK_TREE
    }
    Object.assign(process.env, {
      GIT_DIR: join(root, '.git'),
      GIT_INDEX_FILE: join(root, '.git', 'index'),
      GIT_WORK_TREE: root
    })
    try {
      const { service: checkpoints, failures } = service()
      const workspace = checkpoints.forWorkspace(root)
      const turn = await workspace.mark('t1', 'turn 1')
      const { capture } = await workspace.aroundCommand(
        't1',
        sh(root, 'echo agent > tracked.txt && echo made > made.txt')
      )
      expect(failures).toEqual([])
      expect(capture.changed.sort()).toEqual(['made.txt', 'tracked.txt'])
      expect((await workspace.planRestore('t1', turn.id)).map((f) => f.path)).toEqual(['made.txt', 'tracked.txt'])
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
    expect(existsSync(ran)).toBe(false)
    expect(readFileSync(join(root, '.git', 'index')).equals(before.index)).toBe(true)
    expect(fingerprintGitDir(root)).toEqual(before.gitDir)
    userGit(root, 'config', '--unset', 'core.fsmonitor')
    expect(userGit(root, 'stash', 'list')).toBe(stashList)
  })

  it('a restore never writes through a folder the command swapped for a link out of the workspace', async () => {
    const root = userRepository()
    const outside = tempDir('modus-cp-outside-')
    dirs.push(root, outside)
    write(root, 'lib/notes.txt', 'notes of the project\n')
    write(root, 'lib/data.bin', Buffer.from([0, 1, 2, 3]))
    const { service: checkpoints } = service()
    const workspace = checkpoints.forWorkspace(root)
    const turn = await workspace.mark('t1', 'turn 1')
    await workspace.aroundCommand('t1', sh(root, `rm -r lib && ln -s ${outside} lib`))
    const approvals = createApprovalQueue()
    const files = await createWorkspace({
      root,
      recordWrite: (taskId, path, write) => workspace.recordWrite(taskId, path, write)
    })
    // Nothing reaches the review, so no decision is ever applied through `edits`.
    const summary = await restoreToCheckpoint(
      {
        checkpoints: workspace,
        workspace: files,
        edits: {
          accept: async () => {
            throw new Error('not here')
          },
          reject: async () => {
            throw new Error('not here')
          }
        },
        approvals
      },
      { taskId: 't1', taskTitle: 'T', mode: 'code', checkpointId: turn.id, label: 'turn 1' }
    )
    expect(existsSync(join(outside, 'data.bin'))).toBe(false)
    expect(existsSync(join(outside, 'notes.txt'))).toBe(false)
    expect(summary.restored).toEqual([])
    expect(summary.notRestored.map((f) => f.path).sort()).toEqual(['lib/data.bin', 'lib/notes.txt'])
    expect(summary.notRestored[0].reason).toMatch(/outside the workspace/)
    expect(summary.approvalId).toBeUndefined()
  })
})
