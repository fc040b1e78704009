import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { autopilotMode, createHarness, type Harness } from '../agent/support/harness'
import { userGit, userRepository, userState } from './support/repo'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

describe('checkpoints in a real task: turns, edits and commands', () => {
  it('marks each turn, captures an auto-applied edit and a command, and restores both through the review', async () => {
    const workspace = userRepository()
    const before = userState(workspace)
    harness = await createHarness({
      workspace,
      modes: [autopilotMode],
      turns: [
        {
          toolCalls: [
            { name: 'write_to_file', input: { path: 'tracked.txt', content: 'rewritten by the agent\n' } },
            { name: 'execute_command', input: { command: 'echo generated > gen.txt && rm old.txt' } }
          ]
        },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'change things', mode: 'autopilot', workspace })
    // A command no allow rule names still asks, even in a mode that auto-approves commands.
    const ask = await harness.waitForApproval((i) => i.tool === 'execute_command')
    harness.services.approvals.decide({ approvalId: ask.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const marker = harness.eventsOf(task.id).find((e) => e.type === 'checkpoint')
    expect(marker).toMatchObject({ type: 'checkpoint', label: 'change things' })
    expect(harness.eventsOf(task.id).findIndex((e) => e.type === 'checkpoint')).toBeLessThan(
      harness.eventsOf(task.id).findIndex((e) => e.type === 'user-message')
    )
    expect(readFileSync(join(workspace, 'gen.txt'), 'utf8')).toBe('generated\n')

    const handlers = harness.services.handlers
    const [checkpoint] = await handlers['checkpoints:list']({ taskId: task.id })
    expect(checkpoint).toMatchObject({ label: 'change things', changedFiles: 3, skipped: [], failures: [] })

    const sinceStart = await handlers['checkpoints:taskChanges']({ taskId: task.id })
    expect(sinceStart.map((c) => [c.path, c.operation])).toEqual([
      ['gen.txt', 'create'],
      ['old.txt', 'delete'],
      ['tracked.txt', 'modify']
    ])

    const summary = await handlers['checkpoints:restore']({ taskId: task.id, checkpointId: checkpoint.id })
    expect(summary).toMatchObject({ proposed: 3, conflicts: 0, restored: [], notRestored: [] })
    const item = await harness.waitForApproval((i) => i.id === summary.approvalId)
    expect(item).toMatchObject({ kind: 'edit', tool: 'restore_checkpoint' })
    expect(item.changes!.map((c) => [c.path, c.operation, c.proposed])).toEqual([
      ['gen.txt', 'delete', null],
      ['old.txt', 'create', 'to be deleted\n'],
      ['tracked.txt', 'modify', 'one\ntwo\nthree\nfour (unstaged, the user)\n']
    ])
    // Nothing is written before the user accepts.
    expect(existsSync(join(workspace, 'gen.txt'))).toBe(true)
    const genChange = item.changes!.find((c) => c.path === 'gen.txt')!
    harness.services.approvals.decide({
      approvalId: item.id,
      outcome: 'approve',
      scope: 'call',
      changes: [{ changeId: genChange.id, acceptedHunks: [] }]
    })
    await waitFor(() => readFileSync(join(workspace, 'tracked.txt'), 'utf8').includes('four'))
    expect(readFileSync(join(workspace, 'old.txt'), 'utf8')).toBe('to be deleted\n')
    // The file the user declined stays.
    expect(existsSync(join(workspace, 'gen.txt'))).toBe(true)
    userGit(workspace, 'clean', '-q', '-f', 'gen.txt')
    const after = userState(workspace)
    expect(after.porcelain).toBe(before.porcelain)
    expect(after.index.equals(before.index)).toBe(true)
    expect(after.gitDir).toEqual(before.gitDir)

    // The restore took its own checkpoint: it can be undone.
    const all = await handlers['checkpoints:list']({ taskId: task.id })
    expect(all.map((c) => c.label)).toEqual(['change things', 'Before restoring to “change things”'])

    // Deleting the task drops its checkpoints.
    await harness.services.tasks.delete(task.id)
    const usage = await handlers['checkpoints:usage']({})
    expect(usage.gitAvailable).toBe(true)
    expect(usage.workspaces.find((w) => w.workspace === workspace)).toBeDefined()
  }, 60_000)

  it('read-only commands take no snapshot; a file changed since the agent wrote it comes as a conflict, unticked', async () => {
    const workspace = userRepository()
    harness = await createHarness({
      workspace,
      modes: [autopilotMode],
      turns: [
        {
          toolCalls: [
            { name: 'execute_command', input: { command: 'git status --short && ls' } },
            { name: 'write_to_file', input: { path: 'notes.md', content: 'agent notes\n' } }
          ]
        },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'look around', mode: 'autopilot', workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(existsSync(join(harness.dataDir, 'checkpoints'))).toBe(true)
    const gitDirs = (await import('node:fs'))
      .readdirSync(join(harness.dataDir, 'checkpoints'))
      .map((d) => join(harness!.dataDir, 'checkpoints', d, 'git'))
    expect(gitDirs.some((dir) => existsSync(dir))).toBe(false)

    const { writeFileSync } = await import('node:fs')
    writeFileSync(join(workspace, 'notes.md'), 'the user wrote this after\n')
    const [checkpoint] = await harness.services.handlers['checkpoints:list']({ taskId: task.id })
    const summary = await harness.services.handlers['checkpoints:restore']({
      taskId: task.id,
      checkpointId: checkpoint.id
    })
    expect(summary).toMatchObject({ proposed: 1, conflicts: 1 })
    const item = await harness.waitForApproval((i) => i.id === summary.approvalId)
    expect(item.changes![0].conflict).toMatch(/changed after Modus last wrote it/)
  }, 60_000)
})

describe('rewind the conversation to a checkpoint', () => {
  it('later messages are no longer sent to the model nor shown; files are left as they are; a reload agrees', async () => {
    harness = await createHarness({
      modes: [autopilotMode],
      turns: [
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'first answer' } }] },
        { toolCalls: [{ name: 'write_to_file', input: { path: 'second.txt', content: 'from turn two\n' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'second answer' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'third answer' } }] }
      ]
    })
    const task = await harness.services.tasks.start({
      text: 'turn one',
      mode: 'autopilot',
      workspace: harness.workspace
    })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion' && e.result === 'first answer')
    await harness.services.tasks.send({ taskId: task.id, text: 'turn two, which goes wrong' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion' && e.result === 'second answer')
    const markers = harness.eventsOf(task.id).filter((e) => e.type === 'checkpoint')
    expect(markers).toHaveLength(2)
    const second = markers[1]
    if (second.type !== 'checkpoint') throw new Error('not a checkpoint')

    await harness.services.handlers['task:rewind']({ taskId: task.id, checkpointId: second.checkpointId })
    expect(harness.eventsOf(task.id).at(-1)).toMatchObject({ type: 'rewound', checkpointId: second.checkpointId })
    expect(readFileSync(join(harness.workspace, 'second.txt'), 'utf8')).toBe('from turn two\n')

    await harness.services.tasks.send({ taskId: task.id, text: 'turn two, asked differently' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion' && e.result === 'third answer')
    const requests = harness.fake.requests.filter((r) => r.protocol !== 'unknown')
    const lastBody = JSON.stringify(requests.at(-1)!.body.messages)
    expect(lastBody).toContain('turn one')
    expect(lastBody).toContain('first answer')
    expect(lastBody).toContain('turn two, asked differently')
    expect(lastBody).not.toContain('turn two, which goes wrong')
    expect(lastBody).not.toContain('from turn two')

    // The reloaded task hides the same messages (the log says so).
    const replayed = await harness.services.store.load(task.id)
    expect(
      replayed!.messages.filter((m) => !m.hidden).some((m) => JSON.stringify(m.message).includes('which goes wrong'))
    ).toBe(false)
  }, 60_000)
})

async function waitFor(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !probe(); i++) await new Promise((r) => setTimeout(r, 50))
  expect(probe()).toBe(true)
}
