import { spawn } from 'node:child_process'
import { gitNeutralSettings } from '../../../shared/policy/git-config'

/**
 * Runs the `git` CLI against the shadow repository only. The environment is rebuilt from scratch so
 * nothing of the user's git setup takes part: no inherited GIT_* variables (GIT_DIR, GIT_INDEX_FILE…),
 * no system or global config (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null), hence no hooks,
 * fsmonitor, filters or credential helpers the user configured. `core.hooksPath` points nowhere too.
 */
export interface ShadowGitEnv {
  gitDir: string
  workTree: string
  indexFile: string
  /** `git` executable; default `git` on PATH. */
  gitPath?: string
}

export class GitMissingError extends Error {
  override name = 'GitMissingError'
}

export class GitCommandError extends Error {
  override name = 'GitCommandError'
  constructor(
    message: string,
    readonly exitCode: number | null
  ) {
    super(message)
  }
}

const NULL_DEVICE = process.platform === 'win32' ? 'NUL' : '/dev/null'

/**
 * Per-invocation settings that win over any config file (there is only ours anyway): the shared
 * settings that keep git from running programs (the same ones auto-approved git commands get),
 * then the checkpoint's own.
 */
const SAFE_CONFIG = [
  ...gitNeutralSettings(NULL_DEVICE),
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.quotePath=false',
  'core.untrackedCache=true',
  'core.splitIndex=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'advice.addEmbeddedRepo=false',
  'advice.addIgnoredFile=false'
].flatMap((setting) => ['-c', setting])

export function shadowEnvironment(shadow: ShadowGitEnv, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(base)) {
    if (!key.startsWith('GIT_')) env[key] = value
  }
  return {
    ...env,
    GIT_DIR: shadow.gitDir,
    GIT_WORK_TREE: shadow.workTree,
    GIT_INDEX_FILE: shadow.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: NULL_DEVICE,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_AUTHOR_NAME: 'Modus',
    GIT_AUTHOR_EMAIL: 'checkpoints@modus.invalid',
    GIT_COMMITTER_NAME: 'Modus',
    GIT_COMMITTER_EMAIL: 'checkpoints@modus.invalid',
    LC_ALL: 'C'
  }
}

/** Runs git; resolves with stdout as bytes, rejects with stderr on a non-zero exit. */
export function runGit(
  shadow: ShadowGitEnv,
  args: string[],
  options: { input?: Buffer | string; signal?: AbortSignal } = {}
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(shadow.gitPath ?? 'git', [...SAFE_CONFIG, ...args], {
      cwd: shadow.workTree,
      env: shadowEnvironment(shadow),
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: options.signal,
      windowsHide: true
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new GitMissingError('git is not installed (or not on PATH): changes made by commands are not captured')
          : error
      )
    })
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else
        reject(
          new GitCommandError(
            `git ${args[0]} failed: ${Buffer.concat(err).toString('utf8').trim() || `exit ${code}`}`,
            code
          )
        )
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.input ?? '')
  })
}

/** NUL-separated output as strings (empty entries dropped). */
export function splitNul(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((part) => part.length > 0)
}

let gitFound: Promise<boolean> | null = null
/** Whether `git` runs at all (once per process). */
export function gitAvailable(gitPath = 'git'): Promise<boolean> {
  gitFound ??= new Promise((resolve) => {
    const child = spawn(gitPath, ['--version'], { stdio: 'ignore', windowsHide: true })
    child.on('error', () => resolve(false))
    child.on('close', (code) => resolve(code === 0))
  })
  return gitFound
}
