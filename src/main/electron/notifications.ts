import { app, BrowserWindow, Notification } from 'electron'
import type { ApprovalItem } from '../../shared/contract/approvals'
import type { TaskSummary } from '../../shared/contract/task'
import { createNoticeTracker, type TaskNotice } from '../../shared/notices/task-notices'
import type { Core } from '../core/create-core'

/**
 * Desktop notifications while no Modus window has focus: a task that starts waiting for approval,
 * finishes or fails, by name (`shared/notices`). With a window focused the user is in the app, where
 * the task list and the badge show who waits (web notifications stay denied in the window, see
 * app-security.ts). Keeps the pending count on the dock/taskbar badge.
 * Clicking a notification brings the window forward.
 */
export function notifyTasks(core: Core): () => void {
  const tracker = createNoticeTracker()
  return core.bus.subscribe((name, payload) => {
    if (name === 'task:updated') return show(tracker.onTaskUpdated(payload as TaskSummary))
    if (name !== 'approvals:changed') return
    const items = payload as ApprovalItem[]
    app.setBadgeCount(items.length)
    for (const notice of tracker.onApprovalsChanged(items)) show(notice)
  })
}

function show(notice: TaskNotice | null): void {
  if (!notice || BrowserWindow.getFocusedWindow() || !Notification.isSupported()) return
  const notification = new Notification({ title: notice.title, body: notice.body })
  notification.on('click', () => {
    const window = BrowserWindow.getAllWindows()[0]
    if (!window) return
    if (window.isMinimized()) window.restore()
    window.focus()
  })
  notification.show()
}
