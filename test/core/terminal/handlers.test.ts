import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTerminalHandlers } from '../../../src/main/core/terminal'
import { createHarness, until, type Harness } from './harness'

describe('terminal handlers (user terminals)', () => {
  let h: Harness
  let handlers: ReturnType<typeof createTerminalHandlers>
  beforeAll(async () => {
    h = await createHarness()
    handlers = createTerminalHandlers({ service: h.service, workspaceRoot: () => h.root })
  })
  afterAll(async () => h.cleanup())

  it('creates a user terminal in the workspace, types into it and streams its output', async () => {
    const info = await handlers['terminal:create']({ cols: 100, rows: 20 })
    expect(info).toMatchObject({ kind: 'user', taskId: null, cwd: h.root })
    await handlers['terminal:write']({ terminalId: info.id, data: 'echo "typed $((6*7))"\r' })
    await until(() => (h.data.get(info.id) ?? '').includes('typed 42'), 'the typed command output')
    await handlers['terminal:resize']({ terminalId: info.id, cols: 60, rows: 10 })
    await handlers['terminal:write']({ terminalId: info.id, data: 'stty size\r' })
    await until(() => (h.data.get(info.id) ?? '').includes('10 60'), 'the new size')
    const buffered = await handlers['terminal:output']({ terminalId: info.id })
    expect(buffered.data).toContain('typed 42')
    expect((await handlers['terminal:list']({})).map((t) => t.id)).toContain(info.id)
    await until(() => h.lists.some((list) => list.some((t) => t.id === info.id)), 'a terminal:changed event')
  })

  it('kills a terminal, then removes it', async () => {
    const info = await handlers['terminal:create']({})
    await handlers['terminal:kill']({ terminalId: info.id })
    await until(() => h.service.list().find((t) => t.id === info.id)?.status === 'exited', 'the terminal to exit')
    await handlers['terminal:kill']({ terminalId: info.id })
    expect(h.service.list().some((t) => t.id === info.id)).toBe(false)
    await expect(handlers['terminal:write']({ terminalId: info.id, data: 'x' })).rejects.toMatchObject({
      code: 'not_found'
    })
  })

  it('refuses a user terminal cwd outside the workspace', async () => {
    await expect(handlers['terminal:create']({ cwd: '/' })).rejects.toThrow(/outside the workspace/)
  })

  it('lets the user interrupt a task command with Ctrl-C; the list after it is aborted', async () => {
    const task = h.service.forTask('ctrl-c', h.root)
    const pending = task.execute({ command: 'echo waiting; sleep 30; echo after' })
    await until(
      () => (h.data.get(h.service.list().find((t) => t.taskId === 'ctrl-c')?.id ?? '') ?? '').includes('waiting'),
      'the command to start'
    )
    const terminal = h.service.list().find((t) => t.taskId === 'ctrl-c')!
    await handlers['terminal:write']({ terminalId: terminal.id, data: '\x03' })
    const result = await pending
    expect(result.outcome).toBe('exited')
    expect(result.exitCode).toBe(130)
    expect(result.output.text).not.toContain('after')
  })
})
