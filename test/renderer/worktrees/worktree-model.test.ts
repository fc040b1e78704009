import { describe, expect, it } from 'vitest'
import type { ApprovalItem } from '../../../src/shared/contract/approvals'
import type { TaskSummary } from '../../../src/shared/contract/task'
import {
  isIsolated,
  needsYouFirst,
  outcomeLines,
  stateOf,
  withTask,
  worktreeName
} from '../../../src/renderer/src/features/worktrees/worktree-model'

const task = (
  id: string,
  status: TaskSummary['status'],
  updatedAt: number,
  workspace = '/data/worktrees/x'
): TaskSummary => ({
  id,
  title: id,
  mode: 'code',
  status,
  createdAt: 0,
  updatedAt,
  workspace
})
const asks = (taskId: string) => ({ taskId }) as ApprovalItem

describe('isolated tasks side by side', () => {
  it('sorts tasks waiting for an approval first, then a question, then the most recent', () => {
    const tasks = [
      task('done', 'completed', 9),
      task('question', 'waiting', 1),
      task('asking', 'running', 2),
      task('busy', 'running', 5)
    ]
    expect(needsYouFirst(tasks, [asks('asking')]).map((t) => t.id)).toEqual(['asking', 'question', 'done', 'busy'])
  })

  it('says each task’s state, a pending approval before its status', () => {
    const asking = new Set(['a'])
    expect(stateOf(task('a', 'waiting', 1), asking)).toBe('waiting for approval')
    expect(stateOf(task('b', 'completed', 1), asking)).toBe('done')
    expect(stateOf(task('c', 'failed', 1), asking)).toBe('failed')
    expect(stateOf(task('d', 'running', 1), asking)).toBe('running')
  })

  it('counts a top-level task outside the open folder as isolated; its worktree is named by its folder', () => {
    expect(isIsolated(task('a', 'running', 1), '/home/me/project')).toBe(true)
    expect(isIsolated(task('b', 'running', 1, '/home/me/project'), '/home/me/project')).toBe(false)
    expect(isIsolated({ ...task('c', 'running', 1), parentId: 'a' }, '/home/me/project')).toBe(false)
    expect(worktreeName(task('a', 'running', 1, '/data/worktrees/fix-login'))).toBe('fix-login')
  })

  it('replaces a task’s summary on its update', () => {
    const next = withTask({ a: task('a', 'running', 1) }, task('a', 'completed', 2))
    expect(next.a.status).toBe('completed')
  })

  it('says what an apply wrote and what it left', () => {
    expect(
      outcomeLines({
        written: ['a.txt'],
        conflicts: [{ path: 'b.txt', hunks: ['h2'], reason: 'You changed these lines.' }]
      })
    ).toEqual(['Written: a.txt', 'Not written — b.txt (hunks h2): You changed these lines.'])
  })
})
