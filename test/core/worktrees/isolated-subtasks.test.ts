import { promises as fs } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { toolResultsIn, type FakeTurn } from '../../support/fake-provider'
import type { RecordedRequest } from '../../support/fake-provider/script'
import { autopilotMode, builderMode, createHarness, type Harness } from '../agent/support/harness'
import { makeRepo, userGitState } from './git-repo'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const SETTINGS = { copyFiles: [], setupCommand: '', pruneAfterDays: 14, maxTotalMb: 0 }

/** The parent's requests carry its own task text; a child's carry only the message new_task gave it. */
const isParent = (request: RecordedRequest): boolean => JSON.stringify(request.body).includes('PARENT-TASK')
const childOf = (request: RecordedRequest): string => /TASK-([A-Z])/.exec(JSON.stringify(request.body))?.[1] ?? '?'

/**
 * The parent asks for two isolated subtasks in one message, then completes with what they
 * reported. Each child writes `shared.txt` its own way, reads it back with a command (which asks,
 * in builder mode), and completes. The turns serve whichever task asks, in any order.
 */
const turnFor =
  (childMode: string): FakeTurn =>
  (request) => {
    const results = toolResultsIn(request)
    if (isParent(request)) {
      if (results.length === 0) {
        return {
          toolCalls: ['A', 'B'].map((who) => ({
            name: 'new_task',
            input: { mode: childMode, message: `TASK-${who}: write shared.txt`, isolated: true }
          }))
        }
      }
      return { toolCalls: [{ name: 'attempt_completion', input: { result: 'both subtasks reported' } }] }
    }
    const who = childOf(request)
    if (results.length === 0) {
      return {
        toolCalls: [
          { name: 'write_to_file', input: { path: 'shared.txt', content: `from ${who}\n` } },
          { name: 'execute_command', input: { command: 'cat shared.txt' } }
        ]
      }
    }
    return { toolCalls: [{ name: 'attempt_completion', input: { result: `done ${who}` } }] }
  }

/** Answers the parent's new_task asks yes, as a user at the queue would (commands are left to the test). */
function approveSubtasks(h: Harness): () => void {
  const approve = (items: ReturnType<typeof h.services.approvals.list>) =>
    setImmediate(() => {
      for (const item of items)
        if (item.tool === 'new_task')
          h.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    })
  const stop = h.services.approvals.subscribe(approve)
  approve(h.services.approvals.list())
  return stop
}

/** Every file of the user's working tree (outside .git) with its bytes. */
async function treeBytes(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== '.git') await walk(full)
      } else out[relative(root, full)] = (await fs.readFile(full)).toString('base64')
    }
  }
  await walk(root)
  return out
}

describe('new_task with isolated: true', { timeout: 120_000 }, () => {
  it('runs two subtasks of one message at once, each in its own worktree; each result reaches the parent with its branch', async () => {
    const repo = await makeRepo({ 'shared.txt': 'original\n' })
    harness = await createHarness({ workspace: repo, modes: [builderMode], trusted: true })
    const h = harness
    for (let i = 0; i < 6; i++) h.fake.enqueue(turnFor('builder'))
    await h.services.worktrees.saveSettings(repo, { ...SETTINGS, maxConcurrent: 3 })
    const beforeGit = userGitState(repo)
    const beforeTree = await treeBytes(repo)
    const stopApproving = approveSubtasks(h)

    const parent = await h.services.tasks.start({ text: 'PARENT-TASK split it', mode: 'orchestrator', workspace: repo })
    // Both children wait at the queue at the same time: they run side by side.
    const first = await h.waitForApproval((item) => item.tool === 'execute_command')
    const second = await h.waitForApproval((item) => item.tool === 'execute_command' && item.taskId !== first.taskId)
    for (const item of [first, second])
      h.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await h.waitForEvent((e, id) => e.type === 'completion' && id === parent.id, 'the parent to complete')
    stopApproving()

    const children = (await h.services.worktrees.list()).filter((task) => task.parentTaskId === parent.id)
    expect(children).toHaveLength(2)
    expect(children.map((child) => child.taskId).sort()).toEqual([first.taskId, second.taskId].sort())
    const byWho = new Map<string, (typeof children)[number]>()
    for (const child of children) {
      const content = await fs.readFile(join(child.path, 'shared.txt'), 'utf8')
      byWho.set(content.trim().slice(-1), child)
      expect(child.branch).toMatch(/^modus\//)
      expect(child.changedFiles).toBe(1)
      expect(child.state).toBe('done')
    }
    expect([...byWho.keys()].sort()).toEqual(['A', 'B'])
    expect(byWho.get('A')!.path).not.toBe(byWho.get('B')!.path)

    // The parent's last request carries both results, each naming its branch and changed-file count.
    const parentRequests = h.fake.requests.filter(isParent)
    const results = toolResultsIn(parentRequests[parentRequests.length - 1])
    expect(results).toHaveLength(2)
    for (const who of ['A', 'B']) {
      const result = results.find((entry) => entry.text.includes(`done ${who}`))
      expect(result?.text).toContain('completed')
      expect(result?.text).toContain(`branch ${byWho.get(who)!.branch} (1 changed file`)
    }
    const subtaskEvents = h.eventsOf(parent.id).filter((e) => e.type === 'subtask')
    expect(subtaskEvents.map((e) => (e as { status: string }).status).sort()).toEqual([
      'completed',
      'completed',
      'started',
      'started'
    ])

    // Nothing reached the user's repository: files, index, HEAD, config and refs as they were.
    expect(await treeBytes(repo)).toEqual(beforeTree)
    expect(userGitState(repo)).toEqual(beforeGit)
  })

  it('queues isolated subtasks past the limit and still hands every result to the parent', async () => {
    const repo = await makeRepo({ 'shared.txt': 'original\n' })
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    for (let i = 0; i < 6; i++) h.fake.enqueue(turnFor('autopilot'))
    await h.services.worktrees.saveSettings(repo, { ...SETTINGS, maxConcurrent: 1 })
    const before = userGitState(repo)
    const stopApproving = approveSubtasks(h)

    const parent = await h.services.tasks.start({ text: 'PARENT-TASK split it', mode: 'orchestrator', workspace: repo })
    await h.waitForEvent((e, id) => e.type === 'completion' && id === parent.id, 'the parent to complete')
    stopApproving()

    const children = (await h.services.worktrees.list()).filter((task) => task.parentTaskId === parent.id)
    const parentRequests = h.fake.requests.filter(isParent)
    const results = toolResultsIn(parentRequests[parentRequests.length - 1])
    // When a child is missing, what the parent was told about it says why.
    expect(
      children.map((child) => child.state),
      JSON.stringify(results)
    ).toEqual(['done', 'done'])
    expect(results.map((entry) => /done ([AB])/.exec(entry.text)?.[1]).sort()).toEqual(['A', 'B'])
    expect(userGitState(repo)).toEqual(before)
    expect(await fs.readFile(join(repo, 'shared.txt'), 'utf8')).toBe('original\n')
  })
})
