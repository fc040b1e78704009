// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TaskSummary } from '../../../src/shared/contract/task'
import { HistoryView } from '../../../src/renderer/src/features/history/HistoryView'
import { useHistoryStore } from '../../../src/renderer/src/features/history/history-store'
import { formatCost, searchTasks } from '../../../src/renderer/src/features/history/history-model'
import { byButton, byLabel, click, inProcessClient, render, type, waitFor, type Rendered } from '../modes/dom'

const task = (id: string, title: string, updatedAt: number, extra: Partial<TaskSummary> = {}): TaskSummary => ({
  id,
  title,
  mode: 'code',
  status: 'completed',
  createdAt: updatedAt - 1000,
  updatedAt,
  costUsd: 0.0123,
  ...extra
})

const TASKS = [
  task('t1', 'Fix the login redirect', 1_000),
  task('t2', 'Write the release notes', 3_000, { mode: 'architect' }),
  task('t3', 'Refactor login form', 2_000, { status: 'interrupted', costUsd: null })
]

describe('history model', () => {
  it('lists the tasks waiting for the user first', () => {
    const waiting = task('t0', 'Old task that asks', 500, { status: 'waiting' })
    expect(searchTasks([...TASKS, waiting], '').map((t) => t.id)).toEqual(['t0', 't2', 't3', 't1'])
  })

  it('matches every word against title, mode and status, newest first', () => {
    expect(searchTasks(TASKS, '').map((t) => t.id)).toEqual(['t2', 't3', 't1'])
    expect(searchTasks(TASKS, 'LOGIN').map((t) => t.id)).toEqual(['t3', 't1'])
    expect(searchTasks(TASKS, 'login interrupted').map((t) => t.id)).toEqual(['t3'])
    expect(searchTasks(TASKS, 'architect notes').map((t) => t.id)).toEqual(['t2'])
    expect(searchTasks(TASKS, 'nothing-like-this')).toEqual([])
  })

  it('shows unknown cost as unknown, not as zero', () => {
    expect(formatCost(null)).toBe('cost unknown')
    expect(formatCost(0.0123)).toBe('$0.01')
    expect(formatCost(0.004)).toBe('$0.0040')
    expect(formatCost(undefined)).toBe('')
  })
})

describe('history view', () => {
  let view: Rendered | undefined
  let deleted: string[]
  let resumed: string[]
  let clicks: Array<{ download: string; href: string }>

  beforeEach(() => {
    useHistoryStore.setState({ tasks: {}, loaded: false, query: '' })
    deleted = []
    resumed = []
    clicks = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ download: this.download, href: this.href })
    })
  })
  afterEach(() => {
    view?.unmount()
    vi.restoreAllMocks()
  })

  async function mount(): Promise<HTMLElement> {
    const client = inProcessClient({
      'task:list': async () => TASKS.filter((t) => !deleted.includes(t.id)),
      'task:delete': async ({ taskId }: { taskId: string }) => {
        deleted.push(taskId)
        return { deleted: true }
      },
      'task:export': async ({ taskId, format }: { taskId: string; format: string }) => ({
        fileName: `${taskId}.${format === 'json' ? 'json' : 'md'}`,
        content: `# ${taskId}`
      }),
      'task:resume': async ({ taskId }: { taskId: string }) => {
        resumed.push(taskId)
        return { ...TASKS.find((t) => t.id === taskId)!, status: 'running' }
      },
      'task:events': async () => []
    })
    view = await render(<HistoryView />, client)
    await waitFor(() => view!.container.textContent?.includes('3 of 3 tasks'))
    return view.container
  }

  const rows = (container: HTMLElement) =>
    [...container.querySelectorAll('li.history-row')].map((li) => li.getAttribute('aria-label'))

  it('lists tasks newest first and filters as the user types', async () => {
    const container = await mount()
    expect(rows(container)).toEqual(['Write the release notes', 'Refactor login form', 'Fix the login redirect'])
    await type(byLabel(container, 'Search tasks'), 'login')
    expect(rows(container)).toEqual(['Refactor login form', 'Fix the login redirect'])
    expect(container.textContent).toContain('2 of 3 tasks')
  })

  it('offers Resume only for stopped tasks', async () => {
    const container = await mount()
    const interrupted = container.querySelector<HTMLElement>('li[aria-label="Refactor login form"]')!
    const completed = container.querySelector<HTMLElement>('li[aria-label="Fix the login redirect"]')!
    expect(() => byButton(interrupted, 'Resume')).not.toThrow()
    expect(() => byButton(completed, 'Resume')).toThrow()
    await click(byButton(interrupted, 'Resume'))
    await waitFor(() => resumed.length === 1)
    expect(resumed).toEqual(['t3'])
  })

  it('exports Markdown and JSON as downloads', async () => {
    const container = await mount()
    const row = container.querySelector<HTMLElement>('li[aria-label="Fix the login redirect"]')!
    await click(byButton(row, 'Export Markdown'))
    await waitFor(() => clicks.length === 1)
    await click(byButton(row, 'Export JSON'))
    await waitFor(() => clicks.length === 2)
    expect(clicks.map((c) => c.download)).toEqual(['t1.md', 't1.json'])
    expect(clicks[0].href).toMatch(/^blob:/)
  })

  it('deletes only after confirmation', async () => {
    const container = await mount()
    let row = container.querySelector<HTMLElement>('li[aria-label="Fix the login redirect"]')!
    await click(byButton(row, 'Delete'))
    const dialog = row.querySelector<HTMLElement>('[role="alertdialog"]')!
    expect(dialog.textContent).toContain('cannot be undone')
    await click(byButton(dialog, 'Keep'))
    expect(deleted).toEqual([])
    row = container.querySelector<HTMLElement>('li[aria-label="Fix the login redirect"]')!
    await click(byButton(row, 'Delete'))
    await click(byButton(row.querySelector<HTMLElement>('[role="alertdialog"]')!, 'Delete'))
    await waitFor(() => !container.querySelector('li[aria-label="Fix the login redirect"]'))
    expect(deleted).toEqual(['t1'])
  })
})
