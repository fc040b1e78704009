import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReadCommandOutputExecutor } from '../../../src/main/core/tools/read-command-output'
import { createHarness, until, type Harness } from './harness'

const waiting = (h: Harness): boolean =>
  h.service.list().some((t) => t.command?.state === 'waiting-input' && t.command.endedAt === null)

describe.skipIf(process.platform !== 'linux')('commands that read the terminal', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness({ deps: { inputQuietMs: 300, inputWaitReturnMs: 60_000 } })
  })
  afterAll(async () => h.cleanup())

  it('gives the command a TTY and takes the user’s answer typed into the terminal', async () => {
    const task = h.service.forTask('ask', h.root)
    const pending = task.execute({ command: '[ -t 0 ] && echo has-tty; read -p "Name? " name; echo "hello $name"' })
    await until(() => waiting(h), 'the command to wait for input')
    const terminal = h.service.list().find((t) => t.taskId === 'ask')!
    expect(terminal.command?.state).toBe('waiting-input')
    h.service.write(terminal.id, 'Ada\r')
    const result = await pending
    expect(result.exitCode).toBe(0)
    expect(result.output.text).toBe('has-tty\nName? Ada\nhello Ada\n')
  })

  it('detects an external program (python input()) blocked on the terminal', async () => {
    const task = h.service.forTask('ask', h.root)
    const pending = task.execute({ command: `python3 -c 'print("answer:", input("Continue? "))'` })
    await until(() => waiting(h), 'python to wait for input')
    const terminal = h.service.list().find((t) => t.taskId === 'ask' && t.command?.endedAt === null)!
    h.service.write(terminal.id, 'yes\r')
    const result = await pending
    expect(result.output.text).toBe('Continue? yes\nanswer: yes\n')
  })

  it('does not call a silent command that is not reading the terminal "waiting"', async () => {
    const task = h.service.forTask('ask', h.root)
    const result = await task.execute({ command: 'sleep 1.2; echo slept' })
    expect(result.outcome).toBe('exited')
    expect(
      h.lists.flat().some((t) => t.command?.command === 'sleep 1.2; echo slept' && t.command.state === 'waiting-input')
    ).toBe(false)
  })
})

describe.skipIf(process.platform !== 'linux')('telling the model a command waits for input', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness({ deps: { inputQuietMs: 200, inputWaitReturnMs: 300 } })
  })
  afterAll(async () => h.cleanup())

  it('returns early with waiting-input, then the answered command’s output is readable later', async () => {
    const task = h.service.forTask('later', h.root)
    const result = await task.execute({ command: 'read -p "Overwrite? [y/N] " a; echo "chose $a"' })
    expect(result.outcome).toBe('waiting-input')
    expect(result.waitingPid).not.toBeNull()
    expect(result.output.text).toBe('Overwrite? [y/N] ')
    h.service.write(result.terminalId, 'y\r')
    await until(() => task.processes().length === 0, 'the command to finish')
    const read = createReadCommandOutputExecutor()
    const out = await read.execute(
      { artifact_id: result.artifactId },
      { taskId: 'later', signal: new AbortController().signal, modelSupportsImages: false, terminal: task }
    )
    const text = (out.content[0] as { text: string }).text
    expect(text).toContain('exited with code 0')
    expect(text).toContain('chose y')
  })
})
