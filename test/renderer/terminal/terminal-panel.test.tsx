// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TerminalInfo } from '../../../src/shared/contract/terminal'
import { TerminalPanel } from '../../../src/renderer/src/features/terminal/TerminalPanel'
import { commandStatus, nextActiveTerminal } from '../../../src/renderer/src/features/terminal/terminal-model'
import { useTerminalStore } from '../../../src/renderer/src/features/terminal/terminal-store'
import { routeEvents } from '../../../src/renderer/src/client/event-router'
import { createFakeClient } from '../chat/fake-client'
import { button, click as rawClick, mount, settle } from '../chat/dom'

const click = async (element: HTMLElement): Promise<void> => {
  await rawClick(element)
  await settle()
}

// xterm.js needs a real canvas; the screen itself is exercised in the browser, the panel here.
vi.mock('../../../src/renderer/src/features/terminal/XtermView', () => ({
  default: (props: { terminalId: string; active: boolean }) => (
    <div className="fake-xterm" data-terminal-id={props.terminalId} hidden={!props.active} />
  )
}))

const NOW = Date.now()
const terminal = (id: string, extra: Partial<TerminalInfo> = {}): TerminalInfo => ({
  id,
  kind: 'task',
  taskId: 't1',
  title: `Task ${id}`,
  shell: '/bin/bash',
  pid: 100,
  cwd: '/work/app',
  status: 'idle',
  exitCode: null,
  kept: false,
  command: null,
  ...extra
})
const running = (extra: Partial<NonNullable<TerminalInfo['command']>> = {}): TerminalInfo['command'] => ({
  id: 'c1',
  artifactId: 'cmd-1.txt',
  command: 'npm run dev',
  cwd: '/work/app',
  pid: 4242,
  state: 'running',
  background: true,
  startedAt: NOW - 65_000,
  endedAt: null,
  exitCode: null,
  ...extra
})

let cleanup: (() => void) | null = null
beforeEach(() => useTerminalStore.setState({ terminals: [], activeId: null, openedIds: [] }))
afterEach(() => {
  cleanup?.()
  cleanup = null
})

async function showPanel(list: TerminalInfo[], handlers: Record<string, (input: any) => unknown> = {}) {
  const fake = createFakeClient({
    'terminal:list': () => list,
    'terminal:stopCommand': () => ({ ok: true }),
    'terminal:keep': () => ({ ok: true }),
    'terminal:kill': () => ({ ok: true }),
    'terminal:create': () => terminal('user-9', { kind: 'user', taskId: null, title: 'Terminal 1' }),
    ...handlers
  })
  const stopRouting = routeEvents(fake.client)
  const view = await mount(<TerminalPanel />, fake.client)
  cleanup = () => {
    view.unmount()
    stopRouting()
  }
  await settle()
  await settle()
  return { fake, view, root: view.container }
}

describe('TerminalPanel', () => {
  it('shows a tab per terminal, task terminals first, and the selected command’s state', async () => {
    const { root } = await showPanel([
      terminal('user-1', { kind: 'user', taskId: null, title: 'Terminal 1' }),
      terminal('task-1', { status: 'busy', command: running() })
    ])
    const tabs = [...root.querySelectorAll('[role="tab"]')].map((tab) => tab.textContent)
    // A task terminal is named by its task and the command it runs.
    expect(tabs).toEqual(['Task task-1 · npm run dev (running)', 'Terminal 1 (idle)'])
    expect(root.querySelector('[role="tab"][aria-selected="true"]')?.textContent).toContain('Task task-1')
    expect(root.querySelector('.terminal-command')?.textContent).toBe('npm run dev')
    expect(root.querySelector('.terminal-state')?.textContent).toMatch(/^running · \d+m \d\ds · pid 4242 · background$/)
    expect(root.querySelector('.fake-xterm[data-terminal-id="task-1"]')).not.toBeNull()
  })

  it('stops the running command and keeps a task terminal after its task', async () => {
    const { fake, root } = await showPanel([terminal('task-1', { status: 'busy', command: running() })])
    await click(button(root, 'Stop'))
    expect(fake.callsTo('terminal:stopCommand')).toEqual([{ terminalId: 'task-1' }])
    await click(root.querySelector<HTMLInputElement>('.terminal-keep input')!)
    expect(fake.callsTo('terminal:keep')).toEqual([{ terminalId: 'task-1', keep: true }])
  })

  it('follows terminal:changed events, marking a command waiting for input', async () => {
    const { fake, root } = await showPanel([terminal('task-1')])
    fake.emit('terminal:changed', [
      terminal('task-1', { status: 'busy', command: running({ state: 'waiting-input' }) })
    ])
    await settle()
    expect(root.querySelector('.terminal-tab-waiting')).not.toBeNull()
    expect(root.querySelector('.terminal-state-waiting-input')?.textContent).toContain('waiting for input')
  })

  it('opens a user terminal and selects it; switching tabs keeps both screens mounted', async () => {
    const { fake, root } = await showPanel([terminal('task-1')])
    await click(button(root, 'New terminal'))
    expect(fake.callsTo('terminal:create')).toHaveLength(1)
    expect(root.querySelector('[role="tab"][aria-selected="true"]')?.textContent).toContain('Terminal 1')
    await click(root.querySelector<HTMLButtonElement>('[role="tab"]')!)
    const screens = [...root.querySelectorAll<HTMLElement>('.fake-xterm')]
    expect(screens.map((s) => [s.dataset.terminalId, s.hidden])).toEqual([
      ['task-1', false],
      ['user-9', true]
    ])
  })

  it('shows an error from the core', async () => {
    const { root } = await showPanel([], {
      'terminal:create': () => {
        throw new Error('Working directory is outside the workspace')
      }
    })
    await click(button(root, 'New terminal'))
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('outside the workspace')
  })
})

describe('terminal output routing', () => {
  it('hands terminal:data to that terminal’s screens only, until they stop listening', () => {
    const fake = createFakeClient()
    const stopRouting = routeEvents(fake.client)
    const seen: string[] = []
    const stop = useTerminalStore.getState().onOutput('user-1', (data) => seen.push(data))
    fake.emit('terminal:data', { terminalId: 'user-1', data: 'hello ' })
    fake.emit('terminal:data', { terminalId: 'user-2', data: 'not mine' })
    fake.emit('terminal:data', { terminalId: 'user-1', data: 'world' })
    stop()
    fake.emit('terminal:data', { terminalId: 'user-1', data: 'after close' })
    stopRouting()
    expect(seen).toEqual(['hello ', 'world'])
  })
})

describe('terminal model', () => {
  it('describes finished and stopped commands', () => {
    expect(commandStatus(running({ endedAt: NOW - 60_000, exitCode: 2, state: 'exited' })!, NOW)).toBe(
      'exited 2 after 5s'
    )
    expect(commandStatus(running({ endedAt: NOW, exitCode: 137, state: 'killed' })!, NOW)).toBe('stopped after 1m 05s')
  })

  it('keeps the selection while it exists, else picks a live terminal', () => {
    const list = [terminal('a', { status: 'exited' }), terminal('b')]
    expect(nextActiveTerminal(list, 'a')).toBe('a')
    expect(nextActiveTerminal(list, 'gone')).toBe('b')
    expect(nextActiveTerminal([], null)).toBeNull()
  })
})
