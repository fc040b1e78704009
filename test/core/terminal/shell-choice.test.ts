import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chooseShell, invocationLine, prepareShellLaunch } from '../../../src/main/core/terminal/shell-integration'

// Windows and macOS paths cannot run here; these check what would be started there.
describe('shell choice and launch', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'modus-shell-'))
  })
  afterAll(async () => rm(dir, { recursive: true, force: true }))

  it('uses bash or zsh from $SHELL and bash for other shells', () => {
    expect(chooseShell({ SHELL: '/bin/bash', PATH: '/usr/bin:/bin' }, 'linux')).toEqual({
      kind: 'bash',
      file: '/bin/bash'
    })
    expect(chooseShell({ SHELL: '/usr/bin/fish', PATH: '/usr/bin:/bin' }, 'linux').kind).toBe('bash')
    expect(chooseShell({ SHELL: '/nonexistent/zsh', PATH: '/usr/bin:/bin' }, 'darwin').kind).toBe('bash')
  })

  it('uses PowerShell on Windows (pwsh when on PATH, else Windows PowerShell)', () => {
    expect(chooseShell({ PATH: 'C:\\nowhere' }, 'win32')).toEqual({ kind: 'pwsh', file: 'powershell.exe' })
    expect(chooseShell({}, 'win32', 'C:\\Tools\\pwsh.exe')).toEqual({ kind: 'pwsh', file: 'C:\\Tools\\pwsh.exe' })
  })

  it('starts PowerShell with the integration script (UTF-8 BOM), profile on or off', async () => {
    const base = {
      choice: { kind: 'pwsh' as const, file: 'pwsh.exe' },
      integrationDir: join(dir, 'i'),
      scriptDir: join(dir, 's'),
      readyNonce: 'ab'.repeat(16)
    }
    const launch = await prepareShellLaunch({ ...base, loadUserRc: true })
    expect(launch.args).toEqual([
      '-NoLogo',
      '-NoExit',
      '-ExecutionPolicy',
      'Bypass',
      '-File',
      join(dir, 'i', 'pwsh-init.ps1')
    ])
    const script = await readFile(join(dir, 'i', 'pwsh-init.ps1'), 'utf8')
    expect(script.charCodeAt(0)).toBe(0xfeff)
    expect(script).toContain('finally')
    expect((await prepareShellLaunch({ ...base, loadUserRc: false })).args[0]).toBe('-NoProfile')
    expect(launch.env).toEqual({ MODUS_SCRIPT_DIR: join(dir, 's'), MODUS_READY_NONCE: 'ab'.repeat(16) })
    expect(invocationLine('pwsh', 'ff')).toBe(' __modus_run ff\r')
  })

  it('points zsh at its integration dir and remembers the user’s ZDOTDIR', async () => {
    const launch = await prepareShellLaunch({
      choice: { kind: 'zsh', file: '/bin/zsh' },
      integrationDir: join(dir, 'z'),
      scriptDir: join(dir, 's'),
      readyNonce: 'cd'.repeat(16),
      loadUserRc: true,
      userZdotdir: '/home/u/.config/zsh'
    })
    expect(launch.env.ZDOTDIR).toBe(join(dir, 'z', 'zsh'))
    expect(launch.env.MODUS_USER_ZDOTDIR).toBe('/home/u/.config/zsh')
    expect(invocationLine('zsh', 'ff')).toBe('\x15 __modus_run ff\r')
  })
})
