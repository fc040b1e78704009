import { execFile } from 'node:child_process'
import { gitNeutralSettings } from '../../../shared/policy/git-config'
import { capText, MentionRefused, type MentionExpander } from './mention-kinds'

/** git's id of the empty tree: a repository without commits is diffed against it. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
const GIT_TIMEOUT_MS = 20_000
const MAX_UNTRACKED_NAMED = 100

interface GitResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * The real git, run in the workspace with settings that keep the repository's own programs out
 * (no fsmonitor, hooks, pager, external diff or textconv) and without GIT_* variables that could
 * point it at another repository.
 */
function git(cwd: string, args: string[], signal: AbortSignal): Promise<GitResult> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')))
  const settings = gitNeutralSettings().flatMap((setting) => ['-c', setting])
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...settings, '-c', 'core.quotePath=false', ...args],
      { cwd, env: { ...env, GIT_OPTIONAL_LOCKS: '0' }, maxBuffer: 64 * 1024 * 1024, timeout: GIT_TIMEOUT_MS, signal },
      (error, stdout, stderr) => {
        const code =
          error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 0
        if (error && code === 0) return reject(new MentionRefused(`git could not run: ${error.message.split('\n')[0]}`))
        resolve({ code, stdout, stderr })
      }
    )
  })
}

/** The diff without the sections of files the ignore files hide from every tool. */
function withoutIgnored(diff: string, ignored: (path: string) => boolean): { text: string; hidden: number } {
  const sections = diff.split(/^(?=diff --git )/m)
  let hidden = 0
  const kept = sections.filter((section) => {
    const header = /^diff --git a\/(.+?) b\/(.+)$/m.exec(section)
    if (!header) return true
    const hide = ignored(header[1]) || ignored(header[2])
    if (hide) hidden++
    return !hide
  })
  return { text: kept.join(''), hidden }
}

/** `@git-changes`: the working tree's diff against HEAD (staged and unstaged), plus the untracked files' names. */
export const gitChangesMention: MentionExpander<'git-changes'> = async (_mention, scope) => {
  const root = scope.workspace.root
  const inside = await git(root, ['rev-parse', '--is-inside-work-tree'], scope.signal)
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') {
    throw new MentionRefused('the workspace is not in a git repository.')
  }
  const head = await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD'], scope.signal)
  const base = head.code === 0 ? 'HEAD' : EMPTY_TREE
  const diff = await git(
    root,
    ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--relative', base, '--', '.'],
    scope.signal
  )
  if (diff.code !== 0) throw new MentionRefused(`git diff failed: ${diff.stderr.trim().split('\n')[0]}`)
  const untracked = await git(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.'], scope.signal)
  const isIgnored = (path: string) => scope.workspace.isIgnored(path)
  const { text, hidden } = withoutIgnored(diff.stdout, isIgnored)
  const newFiles = untracked.stdout.split('\0').filter((path) => path !== '' && !isIgnored(path))
  const parts = [
    text.trimEnd() === ''
      ? `No changes to tracked files against ${head.code === 0 ? 'HEAD' : 'the empty repository'}.`
      : text.trimEnd()
  ]
  if (hidden > 0) parts.push(`(${hidden} changed file(s) left out: .modusignore/.rooignore excludes them.)`)
  if (newFiles.length > 0) {
    const named = newFiles.slice(0, MAX_UNTRACKED_NAMED).join('\n')
    const more = newFiles.length > MAX_UNTRACKED_NAMED ? `\n(and ${newFiles.length - MAX_UNTRACKED_NAMED} more)` : ''
    parts.push(`Untracked files (not in the diff):\n${named}${more}`)
  }
  return capText(parts.join('\n\n'), 'The diff', 'git diff in a command shows the rest.')
}
