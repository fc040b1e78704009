import { isReadOnlyAnalysis } from './read-only-command'
import { gitNeutralSettings, gitSubcommandFlags, reenablesDriver, runsRepositoryCode } from './git-config'
import { commandName, type CommandAnalysis, type CommandPart } from './shell/analyze'
import type { ShellWord } from './shell/types'

/**
 * How an auto-approved command runs, decided with the verdict and carried to the executor, which
 * runs exactly this and decides nothing again:
 * - `command`: the text the task shell runs — the line as written, with git's invocations given
 *   the settings that keep the repository's config from running programs (git-config.ts);
 * - `names`: the command words the task shell must resolve to the programs of those names (no
 *   alias, function or hashed path elsewhere), checked in that shell just before it runs;
 * - `git`: each git invocation's subcommand and the folders it may run in, whose repository
 *   config is checked for keys the settings cannot neutralise;
 * - `readOnly`: every part only reads (checkpoints skip their snapshots around it).
 * A command the user approves runs as written: its plan has the line unchanged and nothing to check.
 */
export interface CommandRunPlan {
  command: string
  names: string[]
  git: GitRun[]
  readOnly: boolean
}

/** The plan of a command that runs exactly as written (the user approved that text). */
export function asWrittenPlan(line: string, analysis: CommandAnalysis): CommandRunPlan {
  return { command: line, names: [], git: [], readOnly: isReadOnlyAnalysis(analysis) }
}

export interface GitRun {
  subcommand: string | null
  /** Folders it may run in, relative to the command's cwd (`.`): literal `cd` targets and `-C` folders. */
  dirs: string[]
}

export type PlanResult = { ok: true; plan: CommandRunPlan } | { ok: false; rule: string; reason: string }

/** git's global options that take the next word as their value. */
const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--attr-source',
  '--list-cmds'
])
/** Global options that point git at another repository or other programs: the config check could not follow. */
const GIT_ELSEWHERE = /^(?:--git-dir|--work-tree|--exec-path|--super-prefix|--bare)(?:=|$)/
/** `cd`-like commands: the folder git runs in changes. */
const CHANGES_DIR = new Set(['cd', 'pushd', 'popd'])

/** What every rewritten git invocation is given before its subcommand (the same text each time). */
const GIT_SETTINGS = ['--no-pager', ...gitNeutralSettings().flatMap((setting) => ['-c', setting])].join(' ')

interface Insertion {
  at: number
  text: string
}

const refuse = (reason: string): PlanResult => ({ ok: false, rule: 'git-plan', reason })

function joinDir(base: string, dir: string): string {
  if (dir.startsWith('/')) return dir
  return base === '.' ? dir : `${base}/${dir}`
}

/** The word as written at its place in the line: only then can the line be rewritten there. */
const inPlace = (line: string, word: ShellWord | undefined): word is ShellWord =>
  word !== undefined && line.slice(word.start, word.end) === word.raw

/** The names a part makes the shell look up: its first word, its wrappers, its program. */
function namesOf(part: CommandPart): string[] {
  const first = part.command.words[0]
  const names = [
    ...(first && !first.expands ? [first.value] : []),
    ...part.wrappers.map((w) => w.split(' ')[0]),
    part.program
  ]
  return names.filter((name) => name !== '' && !/[$`]/.test(name))
}

interface GitWords {
  subcommand: number | null
  folders: string[]
}

/** Reads git's global options up to the subcommand; a reason when one of them leaves what runs unknown. */
function gitGlobalOptions(words: readonly ShellWord[]): GitWords | string {
  const folders: string[] = []
  for (let i = 1; i < words.length; i++) {
    const word = words[i]
    const value = word.value
    if (!value.startsWith('-') || value === '-') return { subcommand: i, folders }
    if (word.expands) return `the git option '${value}' is only known at run time`
    if (GIT_ELSEWHERE.test(value)) return `'git ${value}' points git at another repository or programs`
    if (value.startsWith('--config-env')) return `'git --config-env' takes settings from the environment`
    if (!GIT_VALUE_OPTIONS.has(value)) continue
    const next = words[i + 1]
    if (!next) return { subcommand: null, folders }
    if (next.expands) return `the value of 'git ${value}' is only known at run time`
    if (value === '-C') folders.push(next.value)
    if (value === '-c' && runsRepositoryCode(next.value.split('=')[0], undefined))
      return `'git -c ${next.value}' sets a key that may run a program`
    i++
  }
  return { subcommand: null, folders }
}

/** The insertions that run one git invocation without the repository's code-running config. */
function gitInsertions(
  line: string,
  part: CommandPart,
  dirs: readonly string[]
): { insert: Insertion[]; run: GitRun } | string {
  const words = part.argvWords
  const options = gitGlobalOptions(words)
  if (typeof options === 'string') return options
  const sub = options.subcommand === null ? undefined : words[options.subcommand]
  if (!inPlace(line, words[0]) || (sub && !inPlace(line, sub)))
    return `the git command '${part.argv.join(' ')}' cannot be rewritten exactly where it stands`
  const rest = options.subcommand === null ? [] : words.slice(options.subcommand + 1)
  const reenabled = rest.find((word) => reenablesDriver(word.value))
  if (reenabled) return `'git ${sub?.value} ${reenabled.value}' turns the repository's diff drivers back on`
  const insert: Insertion[] = sub
    ? [{ at: sub.start, text: `${GIT_SETTINGS} ` }]
    : [{ at: words[0].end, text: ` ${GIT_SETTINGS}` }]
  const flags = gitSubcommandFlags(sub?.value)
  if (sub && flags.length > 0) insert.push({ at: sub.end, text: ` ${flags.join(' ')}` })
  const where = options.folders.reduce<string[]>((acc, folder) => acc.map((dir) => joinDir(dir, folder)), [...dirs])
  return { insert, run: { subcommand: sub?.value ?? null, dirs: where } }
}

/**
 * The run plan of an auto-approved line (already analysed): which names to check and the line
 * with each git invocation rewritten. Refused (the line then asks) when a git invocation cannot
 * be rewritten exactly or runs in a folder only known at run time.
 */
export function planCommand(line: string, analysis: CommandAnalysis): PlanResult {
  const names = new Set<string>()
  const insertions: Insertion[] = []
  const git: GitRun[] = []
  const dirs = new Set(['.'])
  let dirUnknown: string | null = null
  for (const part of analysis.parts) {
    for (const name of namesOf(part)) names.add(name)
    const program = commandName(part.program)
    if (CHANGES_DIR.has(program)) {
      const target = part.argvWords.slice(1).find((word) => !word.value.startsWith('-') || word.value === '-')
      if (!target || target.expands || target.value === '-' || target.value.startsWith('~') || program === 'popd')
        dirUnknown ??= part.argv.join(' ')
      else for (const dir of [...dirs]) dirs.add(joinDir(dir, target.value))
      continue
    }
    if (program !== 'git') continue
    if (part.fromCode)
      return refuse(
        `git runs inside code another program runs ('${part.argv.join(' ')}'), where Modus cannot turn off the repository's code-running config`
      )
    if (dirUnknown)
      return refuse(
        `git runs after '${dirUnknown}', in a folder known only at run time, so its repository's config cannot be checked`
      )
    const rewritten = gitInsertions(line, part, [...dirs])
    if (typeof rewritten === 'string')
      return refuse(`${rewritten}, so it cannot run with the repository's code-running config turned off`)
    insertions.push(...rewritten.insert)
    git.push(rewritten.run)
  }
  let command = line
  for (const { at, text } of [...insertions].sort((a, b) => b.at - a.at))
    command = command.slice(0, at) + text + command.slice(at)
  return { ok: true, plan: { command, names: [...names], git, readOnly: isReadOnlyAnalysis(analysis) } }
}
