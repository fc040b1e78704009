import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ShellNamesChanged } from '../../../src/main/core/terminal/name-check'
import { createHarness, type Harness } from './harness'

/**
 * The task shell answers what a command's names mean just before the command runs in it (bash
 * and zsh, real pty, temporary HOME): a name planted by an earlier command stops the command
 * with what it resolves to; the question itself is never shown in the terminal; the user's own
 * colour alias (Debian's ~/.bashrc) is the program it names.
 */
const ZSH = ['/usr/bin/zsh', '/bin/zsh'].find((path) => existsSync(path))

let h: Harness | undefined
afterEach(async () => {
  await h?.cleanup()
  h = undefined
})

async function refusal(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => null,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ShellNamesChanged)
  return (error as ShellNamesChanged).message
}

const shells = [
  { name: 'bash', file: '/bin/bash', rc: 'bashrc' as const },
  ...(ZSH ? [{ name: 'zsh', file: ZSH, rc: 'zshrc' as const }] : [])
]

describe('what names mean, asked of the task shell', () => {
  for (const shell of shells) {
    it(`${shell.name}: an alias, a function or a hashed path stops the command; the names of programs pass`, async () => {
      h = await createHarness({ shell: shell.file, [shell.rc]: "alias ls='ls --color=auto'\n" })
      const task = h.service.forTask(`names-${shell.name}`, h.root)
      const marker = join(h.root, 'marker')
      // The rc file's colour alias is there, and passes.
      expect((await task.execute({ command: 'alias ls' })).output.text).toContain('ls --color=auto')
      const clean = await task.execute({
        command: 'ls -a && git --version >/dev/null',
        checkNames: ['ls', 'git', 'cd', 'echo']
      })
      expect(clean.exitCode).toBe(0)

      await task.execute({ command: `alias git='touch ${marker}; git'` })
      expect(await refusal(task.execute({ command: 'git status', checkNames: ['git'] }))).toContain(
        `'git' is an alias in the task shell: `
      )
      await task.execute({ command: `unalias git; pytest() { touch ${marker}; }` })
      expect(await refusal(task.execute({ command: 'pytest', checkNames: ['pytest'] }))).toMatch(
        /'pytest' is a shell function in the task shell: pytest \(\) \{/
      )
      await task.execute({
        command:
          shell.name === 'bash' ? 'unset -f pytest; hash -p /bin/sh tool' : 'unfunction pytest; hash tool=/bin/sh'
      })
      expect(await refusal(task.execute({ command: 'tool -c id', checkNames: ['tool'] }))).toContain(
        "'tool' is hashed in the task shell to /bin/sh"
      )
      expect(existsSync(marker)).toBe(false)
      // The probe is Modus's own question: the terminal view never shows it.
      const shown = [...h.data.values()].join('')
      expect(shown).not.toContain('builtin type')
      expect(shown).not.toContain('whence')
    }, 60_000)
  }
})
