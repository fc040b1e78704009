import { existsSync, promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { toolResultsIn, type FakeTurn } from '../../support/fake-provider'
import type { RecordedRequest } from '../../support/fake-provider/script'
import { autopilotMode, createHarness, type Harness } from '../agent/support/harness'
import { git, makeRepo, userGitState } from './git-repo'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const SETTINGS = { copyFiles: ['.env'], setupCommand: '', maxConcurrent: 3, pruneAfterDays: 14, maxTotalMb: 0 }

/** Which task a request belongs to: its task text names it. */
const whoOf = (request: RecordedRequest): string => /TASK-([A-Z])/.exec(JSON.stringify(request.body))?.[1] ?? '?'

/**
 * Each task writes `shared.txt` its own way, records its shell's ports and what it sees of
 * `shared.txt`, then finishes. The turns serve whichever task asks, in any order.
 */
const editingTurn: FakeTurn = (request) => {
  const who = whoOf(request)
  if (toolResultsIn(request).length === 0) {
    return {
      toolCalls: [
        { name: 'write_to_file', input: { path: 'shared.txt', content: `from ${who}\n` } },
        { name: 'execute_command', input: { command: 'printenv PORT MODUS_PORT_BASE > port.txt && cat shared.txt' } }
      ]
    }
  }
  return { toolCalls: [{ name: 'attempt_completion', input: { result: `done ${who}` } }] }
}

/** Answers every command approval yes, as a user at the queue would. */
function approveCommands(h: Harness): () => void {
  // Answered after the queue has told every listener, as a click would come; items already
  // waiting when this starts are answered too (a task may ask before the test subscribes).
  const approve = (items: ReturnType<typeof h.services.approvals.list>) =>
    setImmediate(() => {
      for (const item of items)
        if (item.tool === 'execute_command')
          h.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    })
  const stop = h.services.approvals.subscribe(approve)
  approve(h.services.approvals.list())
  return stop
}

describe('isolated tasks in git worktrees', { timeout: 120_000 }, () => {
  it('runs two tasks at once in two worktrees: each sees only its own edit, and the user’s git state does not change', async () => {
    const repo = await makeRepo(
      { 'shared.txt': 'original\n', '.gitignore': '.env\nnode_modules/\n' },
      { '.env': 'DATABASE_URL=x\n' }
    )
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    for (let i = 0; i < 4; i++) h.fake.enqueue(editingTurn)
    await h.services.worktrees.saveSettings(repo, { ...SETTINGS, setupCommand: 'touch setup-ran.txt' })
    const before = userGitState(repo)

    const [a, b] = await Promise.all([
      h.services.worktrees.start({ workspace: repo, text: 'TASK-A edit shared', mode: 'autopilot' }),
      h.services.worktrees.start({ workspace: repo, text: 'TASK-B edit shared', mode: 'autopilot', name: 'second one' })
    ])
    expect(a.branch).toMatch(/^modus\//)
    expect(b.branch).toBe('modus/second-one')
    expect(a.path).not.toBe(b.path)
    for (const task of [a, b]) {
      expect(task.path.startsWith(join(h.dataDir, 'worktrees'))).toBe(true)
      expect(task.baseCommit).toBe(git(repo, 'rev-parse', 'HEAD').trim())
    }
    // Both run at once: the queue holds one command of each (its redirection asks), answered there.
    const first = await h.waitForApproval((item) => item.tool === 'execute_command')
    const second = await h.waitForApproval((item) => item.tool === 'execute_command' && item.taskId !== first.taskId)
    expect([first.taskId, second.taskId].sort()).toEqual([a.taskId, b.taskId].sort())
    for (const item of [first, second])
      h.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await h.waitForEvent((e, id) => e.type === 'completion' && id === a.taskId, 'task A done')
    await h.waitForEvent((e, id) => e.type === 'completion' && id === b.taskId, 'task B done')

    expect(await fs.readFile(join(a.path, 'shared.txt'), 'utf8')).toBe('from A\n')
    expect(await fs.readFile(join(b.path, 'shared.txt'), 'utf8')).toBe('from B\n')
    expect(await fs.readFile(join(repo, 'shared.txt'), 'utf8')).toBe('original\n')
    // What each task's shell read back is its own file, never the other's.
    const commandOutput = (taskId: string | undefined) =>
      h
        .eventsOf(taskId!)
        .filter((e) => e.type === 'tool-result')
        .map((e) => (e.type === 'tool-result' ? e.text : ''))
        .join('\n')
    expect(commandOutput(a.taskId)).toContain('from A')
    expect(commandOutput(a.taskId)).not.toContain('from B')
    expect(commandOutput(b.taskId)).toContain('from B')

    // Each shell had its own block of ports.
    const portsA = (await fs.readFile(join(a.path, 'port.txt'), 'utf8')).trim().split('\n')
    const portsB = (await fs.readFile(join(b.path, 'port.txt'), 'utf8')).trim().split('\n')
    expect(portsA).toEqual([String(a.portBase), String(a.portBase)])
    expect(portsB).toEqual([String(b.portBase), String(b.portBase)])
    expect(a.portBase).not.toBe(b.portBase)

    // The listed ignored file was copied, and the setup command ran in each worktree before its task.
    for (const task of [a, b]) {
      expect(await fs.readFile(join(task.path, '.env'), 'utf8')).toBe('DATABASE_URL=x\n')
      expect(existsSync(join(task.path, 'setup-ran.txt'))).toBe(true)
    }
    expect(existsSync(join(repo, 'setup-ran.txt'))).toBe(false)

    expect(userGitState(repo)).toEqual(before)
    const listed = await h.services.worktrees.list()
    expect(listed.map((task) => [task.name, task.state]).sort()).toEqual(
      [
        [a.name, 'done'],
        ['second one', 'done']
      ].sort()
    )
    // shared.txt changed; port.txt and setup-ran.txt are new.
    expect(listed.find((task) => task.id === a.id)?.changedFiles).toBe(3)
    expect(listed.find((task) => task.id === a.id)?.setup).toMatchObject({
      command: 'touch setup-ran.txt',
      status: 'passed',
      exitCode: 0
    })
  })

  it('queues tasks past the limit and starts the next when a slot frees', async () => {
    const repo = await makeRepo({ 'shared.txt': 'original\n' })
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    for (let i = 0; i < 4; i++) h.fake.enqueue(editingTurn)
    await h.services.worktrees.saveSettings(repo, { ...SETTINGS, copyFiles: [], maxConcurrent: 1 })
    const a = await h.services.worktrees.start({ workspace: repo, text: 'TASK-A first', mode: 'autopilot' })
    const b = await h.services.worktrees.start({ workspace: repo, text: 'TASK-B second', mode: 'autopilot' })
    expect(a.state).toBe('running')
    expect(b.state).toBe('queued')
    expect(b.taskId).toBeUndefined()
    const stopApproving = approveCommands(h)
    await h.waitForEvent((e, id) => e.type === 'completion' && id === a.taskId, 'task A done')
    const started = await h.waitForEvent(
      (e, id) => e.type === 'completion' && id !== a.taskId,
      'the queued task to run once A finished'
    )
    expect(started.type).toBe('completion')
    const listed = await h.services.worktrees.get(b.id)
    expect(listed?.taskId).toBeDefined()
    expect(await fs.readFile(join(b.path, 'shared.txt'), 'utf8')).toBe('from B\n')
    stopApproving()
  })

  it('carries uncommitted changes only when asked, reading the main tree only', async () => {
    const repo = await makeRepo({ 'a.txt': 'one\n', 'bin.dat': 'x' })
    await fs.writeFile(join(repo, 'a.txt'), 'one changed\n')
    await fs.writeFile(join(repo, 'new.txt'), 'brand new\n')
    git(repo, 'add', 'bin.dat') // staged state of the user must stay as it is
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    h.fake.enqueue({ text: 'waiting' }, { text: 'waiting' })
    const before = userGitState(repo)
    const plain = await h.services.worktrees.start({ workspace: repo, text: 'TASK-A plain', mode: 'autopilot' })
    const carried = await h.services.worktrees.start({
      workspace: repo,
      text: 'TASK-B carried',
      mode: 'autopilot',
      carryChanges: true
    })
    expect(await fs.readFile(join(plain.path, 'a.txt'), 'utf8')).toBe('one\n')
    expect(existsSync(join(plain.path, 'new.txt'))).toBe(false)
    expect(carried.carriedChanges).toBe(true)
    expect(await fs.readFile(join(carried.path, 'a.txt'), 'utf8')).toBe('one changed\n')
    expect(await fs.readFile(join(carried.path, 'new.txt'), 'utf8')).toBe('brand new\n')
    expect(userGitState(repo)).toEqual(before)
    expect(await fs.readFile(join(repo, 'a.txt'), 'utf8')).toBe('one changed\n')
  })

  it('lists a worktree folder no task owns as an orphan, removes it only when asked, and discards a task with its branch', async () => {
    const repo = await makeRepo({ 'a.txt': 'one\n' })
    harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const h = harness
    h.fake.enqueue({ toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] })
    const task = await h.services.worktrees.start({ workspace: repo, text: 'TASK-A', mode: 'autopilot' })
    await h.waitForEvent((e, id) => e.type === 'completion' && id === task.taskId, 'done')
    // A worktree made by a Modus that stopped before writing its record.
    const strayPath = join(h.services.worktrees.dir, 'some-repo-0123456789', 'stray')
    await fs.mkdir(join(strayPath, '..'), { recursive: true })
    git(repo, 'worktree', 'add', '--quiet', '-b', 'modus/stray', strayPath)
    const orphans = await h.services.worktrees.orphans()
    expect(orphans).toEqual([expect.objectContaining({ path: strayPath, branch: 'modus/stray', repoRoot: repo })])
    // Listing never removes it.
    expect(existsSync(strayPath)).toBe(true)
    await expect(h.services.worktrees.discardOrphan(join(repo))).rejects.toThrow('not an orphaned worktree')
    expect(await h.services.worktrees.discardOrphan(strayPath)).toEqual({ removed: true })
    expect(existsSync(strayPath)).toBe(false)
    expect(git(repo, 'branch', '--list', 'modus/stray').trim()).toBe('')

    expect(await h.services.worktrees.discard(task.id)).toEqual({ removed: true, branchDeleted: true })
    expect(existsSync(task.path)).toBe(false)
    expect(git(repo, 'branch', '--list', task.branch).trim()).toBe('')
    expect(await h.services.worktrees.list()).toEqual([])
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(task.path)
  })
})
