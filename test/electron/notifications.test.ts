import { beforeEach, describe, expect, it, vi } from 'vitest'

// No Electron binary exists here: the adapter runs against a recording stand-in of the three electron
// APIs it uses, so what it shows and when is asserted directly.
const recorded = vi.hoisted(() => ({ shown: [] as Array<{ title: string; body: string }>, focused: false, badge: -1 }))

vi.mock('electron', () => {
  class Notification {
    static isSupported() {
      return true
    }
    constructor(private readonly options: { title: string; body: string }) {}
    on() {
      return this
    }
    show() {
      recorded.shown.push(this.options)
    }
  }
  return {
    Notification,
    app: { setBadgeCount: (count: number) => (recorded.badge = count) },
    BrowserWindow: { getFocusedWindow: () => (recorded.focused ? {} : null), getAllWindows: () => [] }
  }
})

import { createEventBus } from '../../src/main/core/event-bus'
import type { Core } from '../../src/main/core/create-core'
import { notifyTasks } from '../../src/main/electron/notifications'

const summary = (status: string) => ({ id: 't1', title: 'Fix login', mode: 'code', status, createdAt: 1, updatedAt: 2 })
const approval = {
  id: 'a1',
  taskId: 't1',
  taskTitle: 'Fix login',
  kind: 'tool',
  mode: 'code',
  summary: 'Run npm test',
  rule: '',
  reason: '',
  createdAt: 1
}

describe('Electron notifications', () => {
  beforeEach(() => {
    recorded.shown.length = 0
    recorded.focused = false
  })

  it('names the task that waits for approval, finishes or fails while no window has focus', () => {
    const bus = createEventBus()
    notifyTasks({ bus } as unknown as Core)
    bus.emit('task:updated', summary('running') as never)
    bus.emit('approvals:changed', [approval] as never)
    expect(recorded.badge).toBe(1)
    bus.emit('approvals:changed', [] as never)
    bus.emit('task:updated', summary('completed') as never)
    expect(recorded.shown).toEqual([
      { title: 'Waiting for your approval: Fix login', body: 'Run npm test' },
      { title: 'Task done: Fix login', body: 'Ready to review.' }
    ])
  })

  it('stays quiet while a Modus window has focus: the app itself shows who waits', () => {
    recorded.focused = true
    const bus = createEventBus()
    notifyTasks({ bus } as unknown as Core)
    bus.emit('task:updated', summary('running') as never)
    bus.emit('task:updated', summary('failed') as never)
    expect(recorded.shown).toEqual([])
  })
})
