import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { proposeForWorktree, type ProposalDeps } from '../../../src/main/core/worktrees/propose-commands'
import { autopilotMode, createHarness, type Harness } from '../agent/support/harness'
import { git, makeRepo, userGitState } from './git-repo'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

/** An isolated task that wrote `shared.txt` in its worktree (uncommitted) and finished. */
async function finishedIsolatedTask(h: Harness, repo: string) {
  h.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'shared.txt', content: 'from the task\n' } }] },
    { toolCalls: [{ name: 'attempt_completion', input: { result: 'Written.' } }] }
  )
  const task = await h.services.worktrees.start({ workspace: repo, text: 'Edit shared', mode: 'autopilot' })
  await h.waitForEvent((event, id) => event.type === 'completion' && id === task.taskId, 'the isolated task done')
  await h.waitForEvent((event, id) => event.type === 'status' && event.status === 'completed' && id === task.taskId)
  return task
}

const depsOf = (h: Harness, programs: string[]): ProposalDeps => ({
  worktrees: h.services.worktrees,
  start: (input) => h.services.tasks.start(input),
  hasProgram: (name) => programs.includes(name)
})

describe('"Merge branch" and "Open a PR" are proposed as commands through the policy', { timeout: 120_000 }, () => {
  it('merge: the task waits for the approval of git merge; nothing runs before it, a rejection leaves the repository, an approval merges', async () => {
    const repo = await makeRepo({ 'shared.txt': 'original\n' })
    // The merge commit is the user's own: their identity, in the repository's config.
    git(repo, 'config', 'user.name', 'User')
    git(repo, 'config', 'user.email', 'user@example.invalid')
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    const task = await finishedIsolatedTask(h, repo)
    const head = git(repo, 'rev-parse', 'HEAD')
    const before = userGitState(repo)

    const first = await proposeForWorktree(depsOf(h, ['git']), task.taskId!, 'merge')
    expect(first.command).toBe(`git merge --no-ff --no-edit ${task.branch}`)
    // The task's uncommitted work went onto its own branch first, so the merge has something to bring.
    expect(first.committedWork).toBe(true)
    expect(git(repo, 'show', `${task.branch}:shared.txt`)).toBe('from the task\n')
    const asked = await h.waitForApproval((item) => item.taskId === first.taskId)
    expect(asked.tool).toBe('execute_command')
    expect(asked.args).toMatchObject({ command: first.command, outside_sandbox: true })
    // Waiting for the answer: the user's HEAD, index and branch are as they were.
    expect(userGitState(repo)).toEqual(before)
    h.services.approvals.decide({ approvalId: asked.id, outcome: 'reject', scope: 'call' })
    await h.waitForEvent((event, id) => event.type === 'status' && event.status === 'failed' && id === first.taskId)
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head)
    expect(await fs.readFile(join(repo, 'shared.txt'), 'utf8')).toBe('original\n')

    const second = await proposeForWorktree(depsOf(h, ['git']), task.taskId!, 'merge')
    const approval = await h.waitForApproval((item) => item.taskId === second.taskId)
    h.services.approvals.decide({ approvalId: approval.id, outcome: 'approve', scope: 'call' })
    await h.waitForEvent((event, id) => event.type === 'completion' && id === second.taskId, 'the merge done')
    expect(git(repo, 'rev-parse', 'HEAD^2').trim()).toBe(git(repo, 'rev-parse', task.branch).trim())
    expect(git(repo, 'rev-parse', 'HEAD^1')).toBe(head)
    expect(await fs.readFile(join(repo, 'shared.txt'), 'utf8')).toBe('from the task\n')
  })

  it('a PR without gh says it is not installed and proposes nothing; with gh it proposes push and gh pr create', async () => {
    const repo = await makeRepo({ 'shared.txt': 'original\n' })
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    const task = await finishedIsolatedTask(h, repo)
    const tasksBefore = h.services.tasks.list().length
    await expect(proposeForWorktree(depsOf(h, ['git']), task.taskId!, 'pr')).rejects.toThrow(
      /GitHub CLI \(gh\) is not installed/
    )
    expect(h.services.tasks.list()).toHaveLength(tasksBefore)
    expect(h.services.approvals.list()).toEqual([])

    const proposed = await proposeForWorktree(depsOf(h, ['git', 'gh']), task.taskId!, 'pr')
    expect(proposed.command).toBe(
      `git push --set-upstream origin ${task.branch} && gh pr create --head ${task.branch} --fill`
    )
    const asked = await h.waitForApproval((item) => item.taskId === proposed.taskId)
    expect(asked.args).toMatchObject({ command: proposed.command, outside_sandbox: true })
    h.services.approvals.decide({ approvalId: asked.id, outcome: 'reject', scope: 'call' })
  })
})
