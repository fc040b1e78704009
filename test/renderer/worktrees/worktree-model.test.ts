import { describe, expect, it } from 'vitest'
import type { ApprovalItem } from '../../../src/shared/contract/approvals'
import type { WorktreeTask } from '../../../src/shared/contract/worktrees'
import {
  branchOfTask,
  linesToList,
  needsYouFirst,
  outcomeLines,
  stateOf
} from '../../../src/renderer/src/features/worktrees/worktree-model'

const task = (id: string, state: WorktreeTask['state'], createdAt: number): WorktreeTask => ({
  id: `wt-${id}`,
  taskId: id,
  name: id,
  title: id,
  mode: 'code',
  branch: `modus/${id}`,
  baseCommit: 'abc',
  path: `/data/worktrees/${id}`,
  repoRoot: '/home/me/project',
  state,
  changedFiles: 0,
  costUsd: null,
  createdAt,
  portBase: 41000,
  portCount: 10,
  carriedChanges: false,
  copiedFiles: [],
  pruned: false
})
const asks = (taskId: string) => ({ taskId }) as ApprovalItem

describe('isolated tasks side by side', () => {
  it('sorts tasks waiting for an approval first, then a question, then the newest', () => {
    const tasks = [
      task('done', 'done', 9),
      task('question', 'waiting', 1),
      task('asking', 'running', 2),
      task('busy', 'running', 5)
    ]
    expect(needsYouFirst(tasks, [asks('asking')]).map((t) => t.taskId)).toEqual(['asking', 'question', 'done', 'busy'])
  })

  it('says a task waits for approval while one of its items is in the queue, else its state', () => {
    expect(stateOf(task('a', 'running', 1), new Set(['a']))).toBe('waiting for approval')
    expect(stateOf(task('b', 'queued', 1), new Set(['a']))).toBe('queued')
  })

  it('names the branch of an isolated task for the approval queue, nothing for a task in the open folder', () => {
    expect(branchOfTask([task('a', 'running', 1)], 'a')).toBe('modus/a')
    expect(branchOfTask([task('a', 'running', 1)], 'main-task')).toBeUndefined()
  })

  it('says what an apply wrote and what it left', () => {
    expect(
      outcomeLines({
        written: ['a.txt'],
        conflicts: [{ path: 'b.txt', hunks: ['h2'], reason: 'You changed these lines.' }]
      })
    ).toEqual(['Written: a.txt', 'Not written — b.txt (hunks h2): You changed these lines.'])
    expect(linesToList(' .env\n\n.env.local \n')).toEqual(['.env', '.env.local'])
  })
})
