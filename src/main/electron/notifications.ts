import { app, BrowserWindow, Notification } from 'electron'
import type { Core } from '../core/create-core'

interface PendingItem {
  id: string
  summary: string
  taskTitle: string
}

/**
 * A desktop notification when an approval item arrives while no Modus window has focus, and the
 * pending count on the dock/taskbar badge. Clicking the notification brings the window forward.
 */
export function notifyApprovals(core: Core): () => void {
  let known = new Set<string>()
  return core.bus.subscribe((name, payload) => {
    if (name !== 'approvals:changed') return
    const items = payload as PendingItem[]
    app.setBadgeCount(items.length)
    const arrived = items.filter((item) => !known.has(item.id))
    known = new Set(items.map((item) => item.id))
    if (arrived.length === 0 || BrowserWindow.getFocusedWindow() || !Notification.isSupported()) return
    const first = arrived[0]
    const notification = new Notification({
      title: arrived.length === 1 ? 'Modus is waiting for your approval' : `${arrived.length} items wait for approval`,
      body: `${first.taskTitle}: ${first.summary}`.slice(0, 200)
    })
    notification.on('click', () => {
      const window = BrowserWindow.getAllWindows()[0]
      if (window) {
        if (window.isMinimized()) window.restore()
        window.focus()
      }
    })
    notification.show()
  })
}
