import { describe, expect, it } from 'vitest'
import { shouldNotify, type NoticeHost } from '../../../src/renderer/src/common/desktop-notices'
import type { TaskNotice } from '../../../src/shared/notices/task-notices'

const notice: TaskNotice = { taskId: 't1', kind: 'completed', title: 'Task done: x', body: '' }
const granted = { permission: 'granted' } as unknown as typeof Notification

const host = (extra: Partial<NoticeHost>): NoticeHost => ({
  Notification: granted,
  hasFocus: () => true,
  shownTaskId: () => 't2',
  enabled: () => true,
  desktopApp: false,
  open: () => undefined,
  ...extra
})

describe('when a desktop notice is raised', () => {
  it('for another task than the one on screen, or any task while the window is in the background', () => {
    expect(shouldNotify(notice, host({}))).toBe(true)
    expect(shouldNotify(notice, host({ shownTaskId: () => 't1', hasFocus: () => false }))).toBe(true)
  })

  it('never for the task the user is looking at in a focused window', () => {
    expect(shouldNotify(notice, host({ shownTaskId: () => 't1' }))).toBe(false)
  })

  it('only when the user turned it on and the page may notify, and not inside the desktop app', () => {
    expect(shouldNotify(notice, host({ enabled: () => false }))).toBe(false)
    expect(
      shouldNotify(notice, host({ Notification: { permission: 'default' } as unknown as typeof Notification }))
    ).toBe(false)
    expect(shouldNotify(notice, host({ Notification: undefined }))).toBe(false)
    expect(shouldNotify(notice, host({ desktopApp: true }))).toBe(false)
  })
})
