import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'

/**
 * A desktop app started from a menu lacks the login shell's PATH and variables. Like VS Code, ask
 * the user's shell once: `$SHELL -ilc` printing the environment between two random marks (rc
 * files may print anything around it), with a timeout. On failure the process env is used.
 */
export type ResolveEnv = () => Promise<Record<string, string>>

export interface LoginEnvOptions {
  shell?: string
  timeoutMs?: number
  /** Time between SIGTERM and SIGKILL once the timeout passed (default 1.5 s). */
  killGraceMs?: number
  baseEnv?: NodeJS.ProcessEnv
  platform?: NodeJS.Platform
}

const cleanEnv = (env: NodeJS.ProcessEnv): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return out
}

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  try {
    process.kill(-child.pid!, signal)
  } catch {
    child.kill(signal)
  }
}

export async function resolveLoginShellEnv(options: LoginEnvOptions = {}): Promise<Record<string, string>> {
  const baseEnv = options.baseEnv ?? process.env
  const platform = options.platform ?? process.platform
  const shell = options.shell ?? baseEnv.SHELL
  if (platform === 'win32' || !shell) return cleanEnv(baseEnv)
  const mark = randomBytes(8).toString('hex')
  const script = `printf '%s' '${mark}'; command env -0; printf '%s' '${mark}'`
  const output = await new Promise<string | null>((resolve) => {
    const child = spawn(shell, ['-ilc', script], {
      env: { ...baseEnv, MODUS_RESOLVING_SHELL_ENV: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true
    })
    const chunks: Buffer[] = []
    let killTimer: NodeJS.Timeout | null = null
    const timer = setTimeout(() => {
      // SIGTERM first: an rc helper killed outright leaves its lock behind (pyenv's rehash lock
      // then stalls every later shell of the user for a minute). SIGKILL only what outlives the grace.
      signalGroup(child, 'SIGTERM')
      killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), options.killGraceMs ?? 1500)
      killTimer.unref()
      resolve(null)
    }, options.timeoutMs ?? 10_000)
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', () => {
      clearTimeout(timer)
      resolve(null)
    })
    child.on('close', () => {
      clearTimeout(timer)
      if (killTimer) clearTimeout(killTimer)
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
  })
  const parsed = output === null ? null : parseMarkedEnv(output, mark)
  if (!parsed) return cleanEnv(baseEnv)
  delete parsed.MODUS_RESOLVING_SHELL_ENV
  // Variables of a one-shot shell that would mislead the long-lived ones.
  for (const key of ['SHLVL', '_', 'PWD', 'OLDPWD']) delete parsed[key]
  return parsed
}

export function parseMarkedEnv(output: string, mark: string): Record<string, string> | null {
  const start = output.indexOf(mark)
  const end = output.lastIndexOf(mark)
  if (start < 0 || end <= start) return null
  const body = output.slice(start + mark.length, end)
  const entries = body.includes('\0') ? body.split('\0') : body.split('\n')
  const env: Record<string, string> = {}
  for (const entry of entries) {
    const eq = entry.indexOf('=')
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1)
  }
  return Object.keys(env).length > 0 ? env : null
}

/** Resolves once and shares the answer (and the wait) between all callers. */
export function memoizeEnv(resolve: ResolveEnv): ResolveEnv {
  let pending: Promise<Record<string, string>> | null = null
  return () => (pending ??= resolve())
}
