import type { ApprovalItem } from '../contract/approvals'
import type { TaskSummary } from '../contract/task'

/** Why a task asks for the user: a desktop notification names the task and says this. */
export type NoticeKind = 'needs-approval' | 'completed' | 'failed'

export interface TaskNotice {
  taskId: string
  kind: NoticeKind
  title: string
  body: string
}

type Status = TaskSummary['status']

/** A task still in its run: only from one of these does "done" or "failed" mean news. */
const IN_RUN: ReadonlySet<Status> = new Set(['running', 'waiting'])
const MAX_BODY = 200

/**
 * Turns the core's events into notices, once per transition: a task that starts waiting for approval
 * (its first pending item), and a top-level task that finishes or fails after running. A subtask's
 * end is its parent's business (the parent carries on), so only its approvals notify.
 */
export interface NoticeTracker {
  onTaskUpdated(task: TaskSummary): TaskNotice | null
  onApprovalsChanged(items: readonly ApprovalItem[]): TaskNotice[]
}

export function createNoticeTracker(): NoticeTracker {
  const statuses = new Map<string, Status>()
  let asking = new Set<string>()
  return {
    onTaskUpdated(task) {
      const previous = statuses.get(task.id)
      statuses.set(task.id, task.status)
      if (task.parentId || previous === undefined || !IN_RUN.has(previous)) return null
      if (task.status === 'completed')
        return notice(task.id, 'completed', `Task done: ${task.title}`, 'Ready to review.')
      if (task.status === 'failed')
        return notice(task.id, 'failed', `Task failed: ${task.title}`, 'Open it to see why.')
      return null
    },
    onApprovalsChanged(items) {
      const firstByTask = new Map<string, ApprovalItem>()
      for (const item of items) if (!firstByTask.has(item.taskId)) firstByTask.set(item.taskId, item)
      const arrived = [...firstByTask.values()].filter((item) => !asking.has(item.taskId))
      asking = new Set(firstByTask.keys())
      return arrived.map((item) =>
        notice(item.taskId, 'needs-approval', `Waiting for your approval: ${item.taskTitle}`, item.summary)
      )
    }
  }
}

const notice = (taskId: string, kind: NoticeKind, title: string, body: string): TaskNotice => ({
  taskId,
  kind,
  title: title.slice(0, MAX_BODY),
  body: body.slice(0, MAX_BODY)
})
