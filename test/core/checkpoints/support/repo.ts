import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** Runs the user's git the way a user would (their own config, in their repository). */
export const userGit = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'u',
      GIT_AUTHOR_EMAIL: 'u@x',
      GIT_COMMITTER_NAME: 'u',
      GIT_COMMITTER_EMAIL: 'u@x',
      GIT_CONFIG_NOSYSTEM: '1'
    }
  })

export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)))
}

export function write(root: string, path: string, text: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

export const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8')

/** A repository with a commit, a staged change and an unstaged change of the user's. */
export function userRepository(): string {
  const root = tempDir('modus-cp-repo-')
  userGit(root, 'init', '-q', '-b', 'main')
  write(root, 'tracked.txt', 'one\ntwo\nthree\n')
  write(root, 'old.txt', 'to be deleted\n')
  write(root, '.gitignore', 'build/\n*.log\n')
  write(root, 'src/app.ts', 'export const app = 1\n')
  userGit(root, 'add', '-A')
  userGit(root, 'commit', '-q', '-m', 'first')
  write(root, 'src/app.ts', 'export const app = 2 // staged by the user\n')
  userGit(root, 'add', 'src/app.ts')
  write(root, 'tracked.txt', 'one\ntwo\nthree\nfour (unstaged, the user)\n')
  write(root, 'notes.md', 'untracked notes of the user\n')
  return root
}

/** Every file under `.git` with its bytes' hash: compared before and after to prove nothing changed. */
export function fingerprintGitDir(root: string): Record<string, string> {
  const result: Record<string, string> = {}
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name)
      const info = statSync(full)
      if (info.isDirectory()) walk(full)
      else
        result[full.slice(root.length)] =
          `${info.mode}:${createHash('sha256').update(readFileSync(full)).digest('hex')}`
    }
  }
  walk(join(root, '.git'))
  return result
}

/** The user's view; `status` runs without optional locks so the observation itself does not refresh the index. */
export function userState(root: string) {
  return {
    porcelain: userGit(root, '--no-optional-locks', 'status', '--porcelain', '--untracked-files=all'),
    index: readFileSync(join(root, '.git', 'index')),
    gitDir: fingerprintGitDir(root)
  }
}

export const cleanup = (...dirs: string[]) => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }))
