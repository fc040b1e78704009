import { spawn } from 'node:child_process'
import { gitNeutralSettings } from '../../../shared/policy/git-config'

const NULL_DEVICE = process.platform === 'win32' ? 'NUL' : '/dev/null'
/** No program of the repository's (hooks, fsmonitor, pager, attribute files outside the tree) takes part in a read. */
const NEUTRAL = [...gitNeutralSettings(NULL_DEVICE), `core.attributesFile=${NULL_DEVICE}`, 'core.quotePath=false']

/**
 * Runs a read-only git command in a task's worktree for the review of what it changed. The user's
 * global and system config stay out, like every git call Modus makes for itself.
 */
export function readGit(cwd: string, args: string[]): Promise<Buffer> {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: NULL_DEVICE,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C'
  })
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...NEUTRAL.flatMap((setting) => ['-c', setting]), ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) return resolve(Buffer.concat(out))
      const detail = Buffer.concat(err).toString('utf8').trim() || `exit ${code}`
      reject(new Error(`git ${args[0]} failed: ${detail}`))
    })
  })
}

/** NUL-separated output as strings, empty entries dropped. */
export const splitNul = (output: Buffer): string[] =>
  output
    .toString('utf8')
    .split('\0')
    .filter((part) => part.length > 0)
