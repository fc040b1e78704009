import { existsSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoizeEnv, parseMarkedEnv, resolveLoginShellEnv } from '../../../src/main/core/terminal/login-env'

describe.skipIf(process.platform === 'win32')('login shell environment', () => {
  let home: string
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'modus-env-'))
    // A login profile that prints noise around setting a variable, as real ones do.
    await writeFile(
      join(home, '.bash_profile'),
      'echo "Welcome back"\nexport MODUS_FROM_PROFILE="a=b c"\nexport PATH="$HOME/bin:$PATH"\n'
    )
  })
  afterAll(async () => rm(home, { recursive: true, force: true }))

  it('reads the variables a login shell sets, ignoring what rc files print', async () => {
    const env = await resolveLoginShellEnv({ shell: '/bin/bash', baseEnv: { HOME: home, PATH: '/usr/bin:/bin' } })
    expect(env.MODUS_FROM_PROFILE).toBe('a=b c')
    expect(env.PATH?.startsWith(join(home, 'bin'))).toBe(true)
    expect(env.MODUS_RESOLVING_SHELL_ENV).toBeUndefined()
  })

  it('falls back to the process env when the shell hangs past the timeout', async () => {
    const slow = join(home, 'slow-shell')
    await writeFile(slow, '#!/bin/sh\nsleep 30\n')
    await chmod(slow, 0o755)
    const env = await resolveLoginShellEnv({ shell: slow, timeoutMs: 300, baseEnv: { HOME: home, ONLY_BASE: '1' } })
    expect(env).toEqual({ HOME: home, ONLY_BASE: '1' })
  })

  it('ends a hung profile with SIGTERM first, so its helpers release their locks', async () => {
    const hungHome = await mkdtemp(join(tmpdir(), 'modus-env-hung-'))
    // Like pyenv's rehash: a helper takes a lock file and removes it from an EXIT trap.
    const helper = 'touch "$HOME/started" "$HOME/lock"; trap \'rm -f "$HOME/lock"\' EXIT; sleep 30'
    await writeFile(join(hungHome, '.bash_profile'), `/bin/bash -c '${helper.replace(/'/g, `'\\''`)}'\n`)
    try {
      const env = await resolveLoginShellEnv({
        shell: '/bin/bash',
        timeoutMs: 4000,
        baseEnv: { HOME: hungHome, PATH: '/usr/bin:/bin' }
      })
      expect(env).toEqual({ HOME: hungHome, PATH: '/usr/bin:/bin' })
      expect(existsSync(join(hungHome, 'started'))).toBe(true)
      const deadline = Date.now() + 5000
      while (existsSync(join(hungHome, 'lock')) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50))
      expect(existsSync(join(hungHome, 'lock'))).toBe(false)
    } finally {
      await rm(hungHome, { recursive: true, force: true })
    }
  })

  it('parses NUL-separated output between the marks, values with newlines included', () => {
    expect(parseMarkedEnv('junkMARKA=1\0B=two\nlines\0MARKjunk', 'MARK')).toEqual({ A: '1', B: 'two\nlines' })
    expect(parseMarkedEnv('no marks', 'MARK')).toBeNull()
  })

  it('resolves once for every caller', async () => {
    let calls = 0
    const resolve = memoizeEnv(async () => ({ N: String(++calls) }))
    await Promise.all([resolve(), resolve()])
    expect(await resolve()).toEqual({ N: '1' })
  })
})
