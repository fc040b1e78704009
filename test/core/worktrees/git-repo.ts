import { execFileSync } from 'node:child_process'
import { mkdtempSync, promises as fs, readFileSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** git with no user or system config (a temp HOME), as a user's own commands would run in the repo. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'User',
      GIT_AUTHOR_EMAIL: 'user@example.invalid',
      GIT_COMMITTER_NAME: 'User',
      GIT_COMMITTER_EMAIL: 'user@example.invalid'
    }
  })
}

/** A real repository in a temp dir with one commit of `files` (and `.gitignore`d extras left on disk). */
export async function makeRepo(files: Record<string, string>, ignored: Record<string, string> = {}): Promise<string> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'modus-repo-')))
  git(root, 'init', '--quiet', '--initial-branch=main')
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(dirname(join(root, path)), { recursive: true })
    await fs.writeFile(join(root, path), content)
  }
  git(root, 'add', '-A')
  git(root, 'commit', '--quiet', '-m', 'first')
  for (const [path, content] of Object.entries(ignored)) {
    await fs.mkdir(dirname(join(root, path)), { recursive: true })
    await fs.writeFile(join(root, path), content)
  }
  return root
}

/**
 * What of the user's repository must not change: the index bytes, HEAD, the config, and every ref
 * except the `modus/*` branches Modus adds.
 */
export function userGitState(root: string): { index: string; head: string; config: string; refs: string } {
  const gitDir = join(root, '.git')
  return {
    index: readFileSync(join(gitDir, 'index')).toString('base64'),
    head: readFileSync(join(gitDir, 'HEAD'), 'utf8'),
    config: readFileSync(join(gitDir, 'config'), 'utf8'),
    refs: git(root, 'for-each-ref', '--format=%(refname) %(objectname)')
      .split('\n')
      .filter((line) => !line.startsWith('refs/heads/modus/'))
      .join('\n')
  }
}
