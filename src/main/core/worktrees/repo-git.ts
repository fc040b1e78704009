import { spawn } from 'node:child_process'
import { gitNeutralSettings } from '../../../shared/policy/git-config'

const NULL_DEVICE = process.platform === 'win32' ? 'NUL' : '/dev/null'

/**
 * Settings for every git run on the user's repository or a task's worktree: nothing its config
 * names runs (hooks, fsmonitor, pagers, signing, credential helpers, an attributes file outside the
 * tree), and nothing is signed or asked.
 */
const SAFE_CONFIG = [
  ...gitNeutralSettings(NULL_DEVICE),
  `core.attributesFile=${NULL_DEVICE}`,
  'commit.gpgsign=false',
  'core.quotePath=false'
].flatMap((setting) => ['-c', setting])

export class RepoGitError extends Error {
  override name = 'RepoGitError'
  constructor(
    message: string,
    readonly exitCode: number | null
  ) {
    super(message)
  }
}

export interface RepoGitOptions {
  input?: Buffer | string
  /** Extra `-c` settings (e.g. filter drivers emptied for an untrusted repository). */
  config?: readonly string[]
  gitPath?: string
}

/**
 * Runs git in `cwd` against the user's repository. No inherited GIT_* variable takes part, the
 * global and system config are left out, and `GIT_OPTIONAL_LOCKS=0` keeps read-only commands from
 * refreshing the user's index (`git status`/`diff` would otherwise rewrite `.git/index`).
 */
export function repoGit(cwd: string, args: readonly string[], options: RepoGitOptions = {}): Promise<Buffer> {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: NULL_DEVICE,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_AUTHOR_NAME: 'Modus',
    GIT_AUTHOR_EMAIL: 'worktrees@modus.invalid',
    GIT_COMMITTER_NAME: 'Modus',
    GIT_COMMITTER_EMAIL: 'worktrees@modus.invalid',
    LC_ALL: 'C'
  })
  const config = [...SAFE_CONFIG, ...(options.config ?? []).flatMap((setting) => ['-c', setting])]
  return new Promise((resolve, reject) => {
    const child = spawn(options.gitPath ?? 'git', [...config, ...args], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new RepoGitError('git is not installed (or not on PATH).', null) : error)
    )
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else {
        const detail = Buffer.concat(err).toString('utf8').trim() || `exit ${code}`
        reject(new RepoGitError(`git ${args[0]} failed: ${detail}`, code))
      }
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.input ?? '')
  })
}

export const gitText = async (cwd: string, args: readonly string[], options?: RepoGitOptions): Promise<string> =>
  (await repoGit(cwd, args, options)).toString('utf8').trim()

/** NUL-separated output as strings (empty entries dropped). */
export const nulList = (output: Buffer): string[] =>
  output
    .toString('utf8')
    .split('\0')
    .filter((part) => part.length > 0)

/**
 * Filter drivers the repository's own config names (`filter.<name>.*`), emptied: checking out an
 * untrusted repository must not run its smudge/clean programs (its `.git/config` is its code).
 */
export async function emptiedFilterDrivers(cwd: string): Promise<string[]> {
  const listed = await gitText(cwd, ['config', '--local', '--name-only', '--get-regexp', '^filter\\.']).catch(() => '')
  const drivers = new Set<string>()
  for (const key of listed.split('\n')) {
    const match = /^filter\.(.+)\.[^.]+$/.exec(key.trim())
    if (match?.[1]) drivers.add(match[1])
  }
  return [...drivers].flatMap((name) => [
    `filter.${name}.smudge=`,
    `filter.${name}.clean=`,
    `filter.${name}.process=`,
    `filter.${name}.required=false`
  ])
}
