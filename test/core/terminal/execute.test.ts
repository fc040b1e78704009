import { mkdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExecuteCommandExecutor } from '../../../src/main/core/tools/execute-command'
import { createHarness, until, type Harness } from './harness'

describe('execute_command on a real pty', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness()
  })
  afterAll(async () => h.cleanup())

  const run = (command: string, cwd?: string) => h.service.forTask('task-a', h.root).execute({ command, cwd })

  it('reports exit code 0 with the output', async () => {
    const result = await run('echo hello')
    expect(result.outcome).toBe('exited')
    expect(result.exitCode).toBe(0)
    expect(result.output.text).toBe('hello\n')
  })

  it('reports exit code 1 and captures stderr with stdout', async () => {
    const result = await run('echo out; echo oops >&2; false')
    expect(result.exitCode).toBe(1)
    expect(result.output.text).toBe('out\noops\n')
  })

  it('reports 127 for a missing command', async () => {
    const result = await run('definitely_not_a_command_xyz')
    expect(result.exitCode).toBe(127)
    expect(result.output.text).toContain('definitely_not_a_command_xyz')
    expect(result.output.text).toContain('not found')
  })

  it('takes the status of a bare return, as a function body would', async () => {
    const result = await run('echo a; return 3; echo b')
    expect(result.exitCode).toBe(3)
    expect(result.output.text).toBe('a\n')
  })

  it('reports a command killed by a signal', async () => {
    const result = await run(`sh -c 'kill -KILL $$'`)
    expect(result.exitCode).toBe(137)
    expect(result.signal).toBe('SIGKILL')
  })

  it('keeps Unicode intact and strips ANSI for the model', async () => {
    const result = await run(`printf '\\033[31mrot\\033[0m é ✓ 日本語 🚀\\n'`)
    expect(result.output.text).toBe('rot é ✓ 日本語 🚀\n')
    await until(
      () => (h.data.get(result.terminalId) ?? '').includes('\x1b[31mrot\x1b[0m'),
      'the raw colours in the view'
    )
  })

  it('runs multi-line commands, quotes and heredocs verbatim', async () => {
    const result = await run(`cat <<'EOF'\nline 'one' "two" $HOME \\n\nEOF\necho "done"`)
    expect(result.output.text).toBe(`line 'one' "two" $HOME \\n\ndone\n`)
  })

  it('keeps the shell between commands (variables persist; each call starts at the workspace root)', async () => {
    await mkdir(join(h.root, 'sub'), { recursive: true })
    const moved = await run('cd sub && export MODUS_T=kept && pwd')
    expect(moved.output.text).toBe(`${join(h.root, 'sub')}\n`)
    expect(moved.endCwd).toBe(join(h.root, 'sub'))
    const result = await run('pwd; echo $MODUS_T')
    expect(result.output.text).toBe(`${h.root}\nkept\n`)
  })

  it('runs in a cwd inside the workspace and refuses one outside, also through a symlink', async () => {
    await mkdir(join(h.root, 'pkg'), { recursive: true })
    expect((await run('pwd', 'pkg')).output.text).toBe(`${join(h.root, 'pkg')}\n`)
    await expect(run('pwd', '..')).rejects.toThrow(/outside the workspace/)
    await expect(run('pwd', '/')).rejects.toThrow(/outside the workspace/)
    await symlink(h.home, join(h.root, 'escape'))
    await expect(run('pwd', 'escape')).rejects.toThrow(/outside the workspace/)
    await expect(run('pwd', 'missing-dir')).rejects.toThrow(/does not exist/)
  })

  it('runs the next command in the workspace root after one cd-ed out of it', async () => {
    await run('cd /')
    expect((await run('pwd')).output.text).toBe(`${h.root}\n`)
  })

  it('never shows the markers or the invocation to the user or the model', async () => {
    const result = await run('echo visible')
    await until(() => (h.data.get(result.terminalId) ?? '').includes('visible\r\n'), 'the output in the view')
    const view = h.data.get(result.terminalId) ?? ''
    expect(view).not.toContain('__modus_run')
    expect(view).not.toContain('\x1b]6973;')
    expect(view).toContain('echo visible\r\nvisible\r\n')
    // Readline turns bracketed paste off before the command runs; the view must hear it too.
    expect(view).toMatch(/\x1b\[\?2004l[^]*echo visible\r\nvisible/)
    expect(result.output.text).toBe('visible\n')
  })

  it('formats the result for the model through the executor', async () => {
    const executor = createExecuteCommandExecutor()
    const ctx = {
      taskId: 'task-a',
      signal: new AbortController().signal,
      modelSupportsImages: false,
      terminal: h.service.forTask('task-a', h.root)
    }
    const ok = await executor.execute({ command: 'echo fine' }, ctx)
    expect(ok.isError).toBe(false)
    expect(ok.content[0]).toMatchObject({ type: 'text' })
    const text = (ok.content[0] as { text: string }).text
    expect(text).toContain('exited with code 0')
    expect(text).toContain('fine')
    const bad = await executor.execute({ command: 'ls', cwd: '../..' }, ctx)
    expect(bad.isError).toBe(true)
    expect((bad.content[0] as { text: string }).text).toContain('outside the workspace')
  })

  it('starts a fresh shell after the command exits the shell', async () => {
    const result = await run('echo bye; exit 4')
    expect(result.outcome).toBe('shell-exited')
    expect(result.exitCode).toBe(4)
    expect((await run('echo again')).output.text).toBe('again\n')
  })
})
