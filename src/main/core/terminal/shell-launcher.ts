import { randomBytes } from 'node:crypto'
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { memoizeEnv, resolveLoginShellEnv, type ResolveEnv } from './login-env'
import { chooseShell, prepareShellLaunch } from './shell-integration'
import { createShellSession } from './shell-session'
import type { SessionStarter } from './terminal-registry'

export interface ShellLauncherDeps {
  /** App data dir: scripts and shell integration go to `terminal/`. */
  dataDir: string
  resolveEnv?: ResolveEnv
  /** Shell to use instead of $SHELL (path). */
  shell?: string
  cols: number
  rows: number
}

/** A shell ready to start: its program and how to start its session. */
export interface ShellToStart {
  shell: string
  start: SessionStarter
}

/** Starts task shells (integrated: markers, no pager) and user shells in the login environment. */
export interface ShellLauncher {
  /** `extraEnv`: the task's own variables (an isolated task's ports), over the login environment. */
  taskShell(cwd: string, loadUserRc: boolean, extraEnv?: Record<string, string>): Promise<ShellToStart>
  userShell(cwd: string, size: { cols?: number; rows?: number }): Promise<ShellToStart>
}

export function createShellLauncher(deps: ShellLauncherDeps): ShellLauncher {
  const platform = process.platform
  const resolveEnv = memoizeEnv(deps.resolveEnv ?? (() => resolveLoginShellEnv()))
  const scriptDir = join(deps.dataDir, 'terminal', 'scripts')
  const integrationDir = join(deps.dataDir, 'terminal', 'integration')

  // Resolve the login shell's environment now, so the first command does not wait for it.
  void resolveEnv().catch(() => undefined)
  void removeStaleScripts(scriptDir)

  async function shellEnv(kind: 'task' | 'user'): Promise<Record<string, string>> {
    const env = { ...(await resolveEnv()) }
    // Electron's own switches (ELECTRON_RUN_AS_NODE would turn every Electron app the user
    // starts from this shell into plain Node) must not leak into the user's commands.
    for (const key of Object.keys(env)) if (key.startsWith('ELECTRON_')) delete env[key]
    env.TERM = 'xterm-256color'
    env.COLORTERM = 'truecolor'
    env.TERM_PROGRAM = 'Modus'
    if (!env.LANG && !env.LC_ALL && platform !== 'win32') env.LANG = 'C.UTF-8'
    if (kind === 'task') {
      // The model cannot drive a pager; commands must print and end.
      env.PAGER = 'cat'
      env.GIT_PAGER = 'cat'
    }
    return env
  }

  return {
    async taskShell(cwd, loadUserRc, extraEnv = {}) {
      const choice = chooseShell(await resolveEnv(), platform, deps.shell)
      const readyNonce = randomBytes(16).toString('hex')
      const launch = await prepareShellLaunch({
        choice,
        integrationDir,
        scriptDir,
        readyNonce,
        loadUserRc,
        userZdotdir: (await resolveEnv()).ZDOTDIR
      })
      const env = { ...(await shellEnv('task')), ...extraEnv }
      return {
        shell: choice.file,
        start: (hooks) =>
          createShellSession({ launch, cwd, env, cols: deps.cols, rows: deps.rows, scriptDir, readyNonce, ...hooks })
      }
    },
    async userShell(cwd, size) {
      const choice = chooseShell(await resolveEnv(), platform, deps.shell)
      const env = await shellEnv('user')
      const args = choice.kind === 'pwsh' ? ['-NoLogo'] : platform === 'darwin' ? ['-l'] : []
      return {
        shell: choice.file,
        start: (hooks) =>
          createShellSession({
            launch: { kind: choice.kind, file: choice.file, args, env: {} },
            cwd,
            env,
            cols: size.cols ?? deps.cols,
            rows: size.rows ?? deps.rows,
            scriptDir,
            readyNonce: randomBytes(16).toString('hex'),
            ...hooks
          })
      }
    }
  }
}

/**
 * Command scripts are deleted when their command ends; a crash leaves some behind. Another Modus
 * process (the CLI beside the app) may share the dir, so only day-old files go.
 */
async function removeStaleScripts(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[])
  const cutoff = Date.now() - 24 * 60 * 60 * 1000
  await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name)
      const info = await stat(path).catch(() => null)
      if (info && info.isFile() && info.mtimeMs < cutoff) await rm(path, { force: true }).catch(() => undefined)
    })
  )
}
