import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseGitConfigList, repositoryCodeKey, type GitRun } from '../../../shared/policy'

/**
 * What a repository's own git config (`.git/config`, the worktree's config and what they include)
 * says, read with git itself so includes and `.git` files pointing elsewhere are followed as git
 * follows them. Reading config runs nothing of the repository's.
 */
export interface RepositoryCodeKey {
  key: string
  /** The folder whose repository sets it. */
  dir: string
}

const READ_TIMEOUT_MS = 10_000

/** The process environment without GIT_* variables (they could point git at another repository). */
function gitFreeEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')))
}

/** A folder a command will create does not exist yet: its repository is the nearest existing folder's. */
function nearestExisting(dir: string): string {
  let current = dir
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current)
  return current
}

/** The config git sees in `dir`, or null when it cannot be read (then the caller fails closed). */
function readConfig(dir: string): Promise<string | null> {
  return new Promise((done) => {
    execFile(
      'git',
      ['config', '--list', '--show-scope', '--includes', '-z'],
      {
        cwd: nearestExisting(dir),
        env: gitFreeEnv(),
        timeout: READ_TIMEOUT_MS,
        maxBuffer: 8 * 1024 * 1024,
        windowsHide: true
      },
      (error, stdout) => {
        // git not installed: the command cannot run git either.
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return done('')
        done(error ? null : stdout)
      }
    )
  })
}

/**
 * The first key in the config of a repository these git invocations run in that may make git run
 * a program Modus does not turn off (a filter driver, an alias the command names, a key not known
 * to be inert), or null when there is none.
 */
export async function findRepositoryCodeKey(cwd: string, runs: readonly GitRun[]): Promise<RepositoryCodeKey | null> {
  const cache = new Map<string, string | null>()
  for (const run of runs) {
    for (const rel of run.dirs.length > 0 ? run.dirs : ['.']) {
      const dir = resolve(cwd, rel)
      if (!cache.has(dir)) cache.set(dir, await readConfig(dir))
      const output = cache.get(dir)
      if (output === null || output === undefined) return { key: '(the repository config could not be read)', dir }
      const key = repositoryCodeKey(parseGitConfigList(output), run.subcommand ?? undefined)
      if (key) return { key, dir }
    }
  }
  return null
}
