import { execFileSync } from 'node:child_process'
import { existsSync, promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModeConfigInput } from '../../../src/shared/modes/schema'
import { createWorktreeApplyHandlers } from '../../../src/main/core/worktrees/apply-handlers'
import { snapshotOnBranch } from '../../../src/main/core/worktrees/worktree-git'
import { toolResultsIn } from '../../support/fake-provider'
import { createHarness, type Harness } from '../agent/support/harness'
import { until } from '../terminal/harness'
import { git, makeRepo, userGitState } from './git-repo'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const hasBwrap = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v bwrap && command -v socat && command -v rg'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

const sandboxedMode: ModeConfigInput = {
  slug: 'boxed',
  name: 'Boxed',
  roleDefinition: 'You build things in a sandbox.',
  groups: ['read', 'edit', 'command'],
  autoApprove: { read: true, edit: true, sandboxedCommands: true },
  sandbox: { enabled: true, network: 'none' }
}

/**
 * A worktree's git data lives in the main repository (`.git/worktrees/<name>`, `.git/objects`,
 * `.git/refs`), which the sandbox keeps read-only: a writable object store or admin folder would
 * let a command rewrite the user's history or point the worktree at a config of its own making.
 * So `git commit` in a sandboxed isolated task fails, and the result says why and what to do.
 */
describe.skipIf(!hasBwrap)(
  'git commit inside an isolated task’s sandbox (real bubblewrap)',
  { timeout: 120_000 },
  () => {
    it('is refused by the sandbox with the reason and the way out; the repository does not change', async () => {
      const repo = await makeRepo({ 'a.txt': 'one\n' })
      // The repository sits in the system temp dir, a writable root of the sandbox by default: the
      // task's sandbox must keep it read-only all the same.
      harness = await createHarness({ workspace: repo, modes: [sandboxedMode], trusted: true })
      const h = harness
      h.fake.enqueue(
        {
          toolCalls: [
            { name: 'write_to_file', input: { path: 'a.txt', content: 'two\n' } },
            { name: 'execute_command', input: { command: 'git commit -q -am work' } }
          ]
        },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
      )
      // The task shell's HOME (a temp dir) names a committer, as a user's would.
      await fs.writeFile(join(h.home, '.gitconfig'), '[user]\n\tname = User\n\temail = user@example.invalid\n')
      const before = userGitState(repo)
      const task = await h.services.worktrees.start({ workspace: repo, text: 'commit in the sandbox', mode: 'boxed' })
      const branchBefore = git(repo, 'rev-parse', task.branch)
      await h.waitForEvent((e, id) => e.type === 'completion' && id === task.taskId, 'the task')

      expect(h.services.approvals.list()).toEqual([])
      const sent = toolResultsIn(h.fake.requests.filter((r) => r.protocol !== 'unknown').at(-1)!)
        .map((result) => result.text)
        .join('\n')
      expect(sent).toMatch(/Sandbox: blocked a write to \S*\.git\/worktrees\/\S*index\.lock/)
      expect(sent).toContain("git's own data")
      expect(sent).toContain('outside_sandbox: true')
      // Nothing was committed: the branch is where it started, the user's repository as it was.
      expect(git(repo, 'rev-parse', task.branch)).toBe(branchBefore)
      expect(userGitState(repo)).toEqual(before)
      // The edit itself stands in the worktree, for the review, once the run's warm sandbox has
      // ended and taken its placeholders over the absent .modus and .roomodes with it.
      const worktree = (await h.services.worktrees.get(task.id))!.path
      await until(
        () => !existsSync(join(worktree, '.modus')) && !existsSync(join(worktree, '.roomodes')),
        'the warm sandbox to end'
      )
      expect((await h.services.worktrees.get(task.id))?.changedFiles).toBe(1)
    })
  }
)

describe.skipIf(!hasBwrap)('an isolated task in a warm sandbox (real bubblewrap)', { timeout: 120_000 }, () => {
  it('lists exactly the files it changed while its warm sandbox keeps placeholders in the worktree', async () => {
    const repo = await makeRepo({ 'a.txt': 'one\n' })
    harness = await createHarness({ workspace: repo, modes: [sandboxedMode], trusted: true })
    const h = harness
    h.fake.enqueue(
      {
        toolCalls: [
          { name: 'write_to_file', input: { path: 'a.txt', content: 'two\n' } },
          { name: 'execute_command', input: { command: 'cat a.txt' } }
        ]
      },
      // Outside the sandbox: it asks, and the task waits there while its warm sandbox lives on.
      { toolCalls: [{ name: 'execute_command', input: { command: 'true', outside_sandbox: true } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
    )
    const task = await h.services.worktrees.start({ workspace: repo, text: 'edit a.txt', mode: 'boxed' })
    const asked = await h.waitForApproval((item) => item.taskId === task.taskId)

    // The first command ran in the warm sandbox, which holds its placeholders over the absent
    // protected paths of the worktree while it waits for the next command.
    expect(['.modus', '.roomodes'].filter((name) => existsSync(join(task.path, name)))).toEqual(['.modus', '.roomodes'])
    expect((await h.services.worktrees.get(task.id))?.changedFiles).toBe(1)
    const review = createWorktreeApplyHandlers({
      worktrees: h.services.worktrees,
      start: (input) => h.services.tasks.start(input),
      hasProgram: () => false
    })
    const changes = await review['worktree:changes']({ taskId: task.taskId! })
    expect(changes.map((change) => [change.path, change.operation])).toEqual([['a.txt', 'modify']])

    h.services.approvals.decide({ approvalId: asked.id, outcome: 'approve', scope: 'call' })
    await h.waitForEvent((e, id) => e.type === 'completion' && id === task.taskId, 'the task to complete')
  })

  it('commits the worktree for a Merge without the placeholders it is told to leave out', async () => {
    const repo = await makeRepo({ 'a.txt': 'one\n' })
    const worktree = join(repo, '..', `${repo.split('/').at(-1)}-wt`)
    git(repo, 'worktree', 'add', '--quiet', '-b', 'modus/t', worktree)
    await fs.writeFile(join(worktree, 'a.txt'), 'two\n')
    await fs.writeFile(join(worktree, '.roomodes'), '')

    git(worktree, 'config', 'user.name', 'User')
    git(worktree, 'config', 'user.email', 'user@example.invalid')
    expect(await snapshotOnBranch(worktree, 'work', ['.roomodes'])).toBe(true)
    expect(git(worktree, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('a.txt')
    expect(git(worktree, 'status', '--porcelain')).toBe('?? .roomodes\n')
  })
})
