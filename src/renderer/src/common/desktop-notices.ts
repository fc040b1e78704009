import type { ModusClient } from '../../../shared/contract'
import { createNoticeTracker, type TaskNotice } from '../../../shared/notices/task-notices'

/** What the notices need from the page, passed in so the rule is testable without a window. */
export interface NoticeHost {
  /** The page's Notification constructor; absent where the API is missing. */
  Notification?: typeof Notification
  hasFocus(): boolean
  /** The task whose conversation is on screen, or null. */
  shownTaskId(): string | null
  /** The user's "Notify me when a task needs me" choice. */
  enabled(): boolean
  /**
   * Inside the desktop app the main process notifies while no window has focus (web notifications
   * are denied there on purpose); the page then notifies nothing itself.
   */
  desktopApp: boolean
  open(taskId: string): void
}

/**
 * Whether a notice reaches the desktop: the user turned notices on and the page may show them, and
 * they are not already looking at that task in a focused window.
 */
export function shouldNotify(notice: TaskNotice, host: NoticeHost): boolean {
  if (host.desktopApp || !host.enabled() || host.Notification?.permission !== 'granted') return false
  return !(host.hasFocus() && host.shownTaskId() === notice.taskId)
}

/** Raises a desktop notification for each task that starts waiting for approval, finishes or fails. */
export function wireDesktopNotices(client: ModusClient, host: NoticeHost): () => void {
  const tracker = createNoticeTracker()
  return client.subscribe((name, payload) => {
    const notices =
      name === 'task:updated'
        ? [tracker.onTaskUpdated(payload)]
        : name === 'approvals:changed'
          ? tracker.onApprovalsChanged(payload)
          : []
    for (const notice of notices) if (notice && shouldNotify(notice, host)) raise(notice, host)
  })
}

function raise(notice: TaskNotice, host: NoticeHost): void {
  const Notice = host.Notification!
  // The tag replaces an older notice of the same task instead of stacking them.
  const shown = new Notice(notice.title, { body: notice.body, tag: `modus-task-${notice.taskId}` })
  shown.onclick = () => {
    host.open(notice.taskId)
    shown.close()
  }
}
