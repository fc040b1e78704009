import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TaskSummary } from '../../../src/shared/contract/task'
import type { StartTaskInput } from '../../../src/main/core/tasks/task-runs'
import { createWorktreeTasks, type WorktreeTasks } from '../../../src/main/core/tasks/worktree-tasks'
import { makeRepo } from './git-repo'

/**
 * The task manager's side, recording what each task was started with; every task runs until the
 * test says otherwise. `onCreate` runs as a worktree's record is made (the worktrees read the
 * clock just before they list it).
 */
async function worktreesOverFakeTasks(dataDir: string, onCreate: () => void) {
  const started: StartTaskInput[] = []
  const summaries: TaskSummary[] = []
  const worktrees: WorktreeTasks = await createWorktreeTasks({
    dataDir,
    tasks: {
      async start(input) {
        started.push(input)
        const summary: TaskSummary = {
          id: `task-${started.length}`,
          title: input.text,
          mode: input.mode ?? 'code',
          status: 'running',
          createdAt: Date.now(),
          updatedAt: Date.now()
        }
        summaries.push(summary)
        return summary
      },
      list: () => summaries,
      cancel: async () => summaries[0],
      resume: async () => summaries[0],
      delete: async () => true
    },
    folderTrusted: () => true,
    defaultMode: 'code',
    now: () => {
      onCreate()
      return Date.now()
    }
  })
  return { worktrees, started }
}

describe('isolated subtasks started side by side', { timeout: 60_000 }, () => {
  // Under load, one child's status event started the queue just as its sibling's record was
  // written: the sibling ran without its parent's hook, and the parent waited for it for ever.
  it('a subtask the queue starts as soon as it is listed (another task moved) still reaches its parent, with its todos', async () => {
    const repo = await makeRepo({ 'shared.txt': 'original\n' })
    let onCreate = () => {}
    const { worktrees, started } = await worktreesOverFakeTasks(mkdtempSync(join(tmpdir(), 'modus-data-')), () =>
      onCreate()
    )
    const todos = [{ text: 'write shared.txt', status: 'pending' as const }]
    const subtask = (who: string) =>
      worktrees.startSubtask(
        { text: `TASK-${who}`, mode: 'code', workspace: repo, parentId: 'parent', parentCallId: `call-${who}`, todos },
        undefined,
        new AbortController().signal
      )

    const first = await subtask('A')
    await worktrees.recover() // its queue run has ended: nothing more is being started
    // The first child reports a status at the moment the second one's record is listed.
    onCreate = () => {
      onCreate = () => {}
      queueMicrotask(() => worktrees.taskEvent(first, { type: 'status', at: Date.now(), status: 'waiting' }))
    }
    const second = subtask('B')

    await expect.poll(() => started.length).toBe(2)
    expect(started[1]).toMatchObject({ text: 'TASK-B', parentId: 'parent', parentCallId: 'call-B', todos })
    expect(await second).toBe('task-2')
    const children = await worktrees.list()
    expect(children.map((child) => [child.taskId, child.parentTaskId]).sort()).toEqual([
      ['task-1', 'parent'],
      ['task-2', 'parent']
    ])
  })

  it('two subtasks whose messages begin alike, made at once, each get their own worktree and branch', async () => {
    const repo = await makeRepo({ 'shared.txt': 'original\n' })
    const { worktrees, started } = await worktreesOverFakeTasks(mkdtempSync(join(tmpdir(), 'modus-data-')), () => {})
    const subtask = (who: string) =>
      worktrees.startSubtask(
        { text: `Implement the parser for the format: ${who}`, mode: 'code', workspace: repo, parentId: 'parent' },
        undefined,
        new AbortController().signal
      )

    expect((await Promise.all([subtask('JSON'), subtask('YAML')])).sort()).toEqual(['task-1', 'task-2'])
    expect(started).toHaveLength(2)
    const children = await worktrees.list()
    expect(new Set(children.map((child) => child.branch)).size).toBe(2)
    expect(new Set(children.map((child) => child.path)).size).toBe(2)
  })
})
