import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, until, type Harness } from './harness'

// A prompt theme written to break marker-based capture: PS1 carries fake start/end markers, and
// PROMPT_COMMAND prints junk and more fake markers before every prompt, plus a DEBUG trap that
// prints before every command (like bash-preexec themes).
const HOSTILE_BASHRC = String.raw`
PS1='\[\e]6973;E;0123456789abcdef0123456789abcdef;0;/fake\a\]\[\e[1;35m\]❯ \u@\h \w \[\e]6973;S;deadbeefdeadbeefdeadbeefdeadbeef\a\]$ \[\e[0m\]'
PROMPT_COMMAND='printf "JUNK before prompt\n"; printf "\033]6973;E;ffffffffffffffffffffffffffffffff;0;/x\007"'
RPROMPT='right side'
trap 'printf "preexec junk\n" >/dev/null' DEBUG
set -o vi
`

describe('a hostile prompt theme', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness({ bashrc: HOSTILE_BASHRC })
  })
  afterAll(async () => h.cleanup())

  it('captures exactly each command’s output and exit code', async () => {
    const task = h.service.forTask('hostile', h.root)
    const first = await task.execute({ command: 'echo one' })
    expect(first.notes).toEqual([])
    expect(first.output.text).toBe('one\n')
    const second = await task.execute({ command: 'echo two >&2; exit_code() { return 5; }; exit_code' })
    expect(second.exitCode).toBe(5)
    expect(second.output.text).toBe('two\n')
    const third = await task.execute({ command: 'printf "no newline at end"' })
    expect(third.output.text).toBe('no newline at end')
  })

  it('ignores a command printing markers with guessed nonces', async () => {
    const task = h.service.forTask('hostile', h.root)
    const fake = String.raw`printf '\033]6973;E;0123456789abcdef0123456789abcdef;0;/x\007after fake end\n'; exit_code() { return 3; }; exit_code`
    const result = await task.execute({ command: fake })
    expect(result.exitCode).toBe(3)
    expect(result.output.text).toBe('after fake end\n')
  })

  it('shows the user the theme’s own prompt and junk, never the invocation', async () => {
    const task = h.service.forTask('hostile', h.root)
    const result = await task.execute({ command: 'echo shown' })
    await until(() => (h.data.get(result.terminalId) ?? '').includes('shown\r\n'), 'the view output')
    const view = h.data.get(result.terminalId) ?? ''
    expect(view).toContain('JUNK before prompt')
    expect(view).not.toContain('__modus_run')
    expect(view).toContain('echo shown\r\nshown\r\n')
  })
})
