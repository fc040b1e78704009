import { describe, expect, it } from 'vitest'
import type { ApprovalItem } from '../../../src/shared/contract/approvals'
import type { TaskSummary } from '../../../src/shared/contract/task'
import { createNoticeTracker } from '../../../src/shared/notices/task-notices'

const task = (status: TaskSummary['status'], extra: Partial<TaskSummary> = {}): TaskSummary => ({
  id: 't1',
  title: 'Fix the login redirect',
  mode: 'code',
  status,
  createdAt: 1,
  updatedAt: 2,
  ...extra
})

const item = (id: string, taskId: string, taskTitle: string): ApprovalItem => ({
  id,
  taskId,
  taskTitle,
  kind: 'tool',
  mode: 'code',
  summary: 'Run npm test',
  rule: '',
  reason: '',
  createdAt: 1
})

describe('task notices', () => {
  it('a task that finishes or fails after running notifies once, by name', () => {
    const tracker = createNoticeTracker()
    expect(tracker.onTaskUpdated(task('running'))).toBeNull()
    expect(tracker.onTaskUpdated(task('completed'))).toMatchObject({
      taskId: 't1',
      kind: 'completed',
      title: 'Task done: Fix the login redirect'
    })
    expect(tracker.onTaskUpdated(task('completed'))).toBeNull()
    tracker.onTaskUpdated(task('running'))
    expect(tracker.onTaskUpdated(task('failed'))).toMatchObject({
      kind: 'failed',
      title: 'Task failed: Fix the login redirect'
    })
  })

  it('a task first seen finished, or a subtask ending, does not notify', () => {
    const tracker = createNoticeTracker()
    expect(tracker.onTaskUpdated(task('completed'))).toBeNull()
    tracker.onTaskUpdated(task('running', { id: 'child', parentId: 't1' }))
    expect(tracker.onTaskUpdated(task('completed', { id: 'child', parentId: 't1' }))).toBeNull()
  })

  it('a task that starts waiting for approval notifies once, not for each further item', () => {
    const tracker = createNoticeTracker()
    const first = tracker.onApprovalsChanged([item('a1', 't1', 'Fix login')])
    expect(first).toEqual([
      { taskId: 't1', kind: 'needs-approval', title: 'Waiting for your approval: Fix login', body: 'Run npm test' }
    ])
    expect(tracker.onApprovalsChanged([item('a1', 't1', 'Fix login'), item('a2', 't1', 'Fix login')])).toEqual([])
    expect(tracker.onApprovalsChanged([item('a2', 't1', 'Fix login'), item('b1', 't2', 'Docs')])).toMatchObject([
      { taskId: 't2' }
    ])
    tracker.onApprovalsChanged([])
    expect(tracker.onApprovalsChanged([item('a3', 't1', 'Fix login')])).toHaveLength(1)
  })
})
