import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, until, type Harness } from './harness'

const ZSH = ['/usr/bin/zsh', '/bin/zsh'].find((path) => existsSync(path))

// A theme in the style of oh-my-zsh/powerlevel: prompt substitution, a right prompt, fake markers
// in the prompt, and precmd/preexec hooks printing junk.
const HOSTILE_ZSHRC = String.raw`
setopt PROMPT_SUBST
PROMPT=$'%{\e]6973;E;0123456789abcdef0123456789abcdef;0;/fake\a%}%F{magenta}❯%f %~ '
RPROMPT='%F{cyan}[right]%f'
precmd() { print "precmd junk" }
preexec() { print "preexec junk" }
`

describe.skipIf(!ZSH)('zsh task shells', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness({ shell: ZSH, zshrc: HOSTILE_ZSHRC })
  })
  afterAll(async () => h.cleanup())

  it('captures output and exit codes under a hostile theme', async () => {
    const task = h.service.forTask('zsh', h.root)
    const ok = await task.execute({ command: 'echo from zsh; print -r -- $ZSH_NAME' })
    expect(ok.notes).toEqual([])
    expect(ok.exitCode).toBe(0)
    expect(ok.output.text).toBe('from zsh\nzsh\n')
    const failed = await task.execute({ command: 'echo err >&2; return 7' })
    expect(failed.exitCode).toBe(7)
    expect(failed.output.text).toBe('err\n')
    const missing = await task.execute({ command: 'no_such_command_zsh' })
    expect(missing.exitCode).toBe(127)
  })

  it('keeps variables, starts each call in the workspace root, and hides the invocation', async () => {
    const task = h.service.forTask('zsh', h.root)
    await task.execute({ command: 'export KEPT=yes; cd /' })
    const result = await task.execute({ command: 'pwd; echo $KEPT' })
    expect(result.output.text).toBe(`${h.root}\nyes\n`)
    await until(() => (h.data.get(result.terminalId) ?? '').includes('yes\r\n'), 'the view output')
    expect(h.data.get(result.terminalId)).not.toContain('__modus_run')
    expect(h.data.get(result.terminalId)).toContain('[right]')
  })

  it('ends the command on the prompt hook when the user interrupts it', async () => {
    const task = h.service.forTask('zsh', h.root)
    const pending = task.execute({ command: 'echo waiting; sleep 30; echo after' })
    await until(
      () =>
        h.service
          .list()
          .some(
            (t) => t.taskId === 'zsh' && t.command?.endedAt === null && (h.data.get(t.id) ?? '').includes('waiting')
          ),
      'the command to start'
    )
    const terminal = h.service.list().find((t) => t.taskId === 'zsh' && t.command?.endedAt === null)!
    h.service.write(terminal.id, '\x03')
    const result = await pending
    expect(result.outcome).toBe('exited')
    expect(result.output.text).not.toContain('after')
  })
})
