import { describe, expect, it } from 'vitest'
import type { TaskSummary } from '../../../src/shared/contract/task'
import { taskToReopen } from '../../../src/renderer/src/common/chat/reopen-task'

const task = (id: string, status: TaskSummary['status'], updatedAt: number, parentId?: string): TaskSummary => ({
  id,
  title: id,
  mode: 'code',
  status,
  createdAt: 0,
  updatedAt,
  parentId
})

describe('the task a new connection reopens', () => {
  it('is the most recent running or waiting task, even when a finished one is newer', () => {
    expect(
      taskToReopen([task('old-live', 'waiting', 1), task('done', 'completed', 5), task('live', 'running', 3)])
    ).toBe('live')
  })

  it('is the most recent task when none runs, and never a subtask', () => {
    expect(taskToReopen([task('a', 'completed', 1), task('b', 'failed', 2), task('child', 'running', 9, 'a')])).toBe(
      'b'
    )
  })

  it('is none without tasks', () => {
    expect(taskToReopen([])).toBeNull()
  })
})
