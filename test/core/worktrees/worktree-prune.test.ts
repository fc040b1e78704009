import { existsSync, promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { WorktreeTask } from '../../../src/shared/contract/worktrees'
import { folderBytes } from '../../../src/main/core/worktrees/worktree-git'
import { autopilotMode, createHarness, type Harness } from '../agent/support/harness'
import { git, makeRepo, userGitState } from './git-repo'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const MB = 1024 * 1024

/** One isolated task that writes `work.txt` (left uncommitted in its worktree) and completes. */
async function finishedTask(h: Harness, repo: string, who: string): Promise<WorktreeTask> {
  h.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'work.txt', content: `work of ${who}\n` } }] },
    { toolCalls: [{ name: 'attempt_completion', input: { result: `done ${who}` } }] }
  )
  const task = await h.services.worktrees.start({ workspace: repo, text: `TASK-${who}`, mode: 'autopilot' })
  await h.waitForEvent((e, id) => e.type === 'completion' && id === task.taskId, `task ${who} done`)
  return task
}

/** A worktree under the worktrees dir that no record owns (a Modus that stopped while making it). */
function strayWorktree(h: Harness, repo: string): string {
  const path = join(h.services.worktrees.dir, 'some-repo-0123456789', 'stray')
  git(repo, 'worktree', 'add', '--quiet', '-b', 'modus/stray', path)
  return path
}

describe('pruning the worktrees of finished isolated tasks', { timeout: 120_000 }, () => {
  it('by age: commits the work on the task’s branch, removes the folder, keeps the branch; an orphan stays', async () => {
    const repo = await makeRepo({ 'a.txt': 'one\n' })
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    const task = await finishedTask(h, repo, 'A')
    const stray = strayWorktree(h, repo)
    const before = userGitState(repo)
    // Anything finished more than ~1 ms ago is old enough.
    await h.services.worktrees.saveSettings(repo, {
      copyFiles: [],
      setupCommand: '',
      maxConcurrent: 3,
      pruneAfterDays: 1e-8,
      maxTotalMb: 0
    })
    await new Promise((resolve) => setTimeout(resolve, 20))

    const result = await h.services.worktrees.prune()
    expect(result.removed).toEqual([task.id])
    expect(existsSync(task.path)).toBe(false)
    // The work the task left uncommitted is on its branch, committed there before the folder went.
    expect(git(repo, 'show', `${task.branch}:work.txt`)).toBe('work of A\n')
    expect(git(repo, 'log', '--format=%s', '-1', task.branch)).toContain('kept when its worktree was pruned')
    expect(await h.services.worktrees.get(task.id)).toMatchObject({ pruned: true, branch: task.branch })
    expect(userGitState(repo)).toEqual(before)

    // The orphan is neither pruned nor hidden: listed, still on disk, until the user removes it.
    expect(existsSync(stray)).toBe(true)
    expect((await h.services.worktrees.orphans()).map((orphan) => orphan.path)).toEqual([stray])
  })

  it('by size: the oldest finished worktree goes first, until the space fits; nothing younger is touched', async () => {
    const repo = await makeRepo({ 'a.txt': 'one\n', 'big.txt': 'x'.repeat(200_000) })
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    const older = await finishedTask(h, repo, 'A')
    const younger = await finishedTask(h, repo, 'B')
    const stray = strayWorktree(h, repo)
    const used = (await h.services.worktrees.settings(repo)).spaceUsedBytes
    // Room for everything but half of the older task's folder: removing it is enough.
    const limit = used - (await folderBytes(older.path)) / 2
    await h.services.worktrees.saveSettings(repo, {
      copyFiles: [],
      setupCommand: '',
      maxConcurrent: 3,
      pruneAfterDays: 0,
      maxTotalMb: limit / MB
    })

    const result = await h.services.worktrees.prune()
    expect(result.removed).toEqual([older.id])
    expect(result.spaceUsedBytes).toBeLessThanOrEqual(limit)
    expect(existsSync(older.path)).toBe(false)
    expect(git(repo, 'show', `${older.branch}:work.txt`)).toBe('work of A\n')
    expect(await fs.readFile(join(younger.path, 'work.txt'), 'utf8')).toBe('work of B\n')
    expect(existsSync(stray)).toBe(true)
  })
})
