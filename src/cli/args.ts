import {
  needsBaseUrl,
  PROVIDER_ENV_KEYS,
  PROVIDER_KINDS,
  PROVIDERS,
  type ProviderKind
} from '../shared/providers/descriptors'

export interface RunArgs {
  command: 'run'
  workspace: string
  mode: string
  task: string
  /** `--image FILE`, repeatable: images sent with the task. */
  images?: string[]
  provider?: ProviderKind
  model?: string
  baseUrl?: string
  json: boolean
  nonInteractive: boolean
  trust: boolean
  /** `--worktree [NAME]`: the task runs isolated, in a new git worktree on branch `modus/<slug>`. */
  worktree?: { name?: string }
}

export interface PromptArgs {
  command: 'prompt'
  mode: string
  workspace: string
  json: boolean
  /** Tools differ per model (GPT models get apply_patch in place of apply_diff). */
  model?: string
  /** The project's own MCP servers start (and their tools count) only with it. */
  trust: boolean
}

export interface TasksArgs {
  command: 'tasks'
  workspace: string
  json: boolean
}

/** `modus resume`: the run options of `modus run`, for a task already there. */
export interface ResumeArgs extends Omit<RunArgs, 'command' | 'task'> {
  command: 'resume'
  /**
   * The words after `resume`: the first names the task when it is the start of one of the
   * workspace's task ids (default: its latest task); the rest is a message to continue with.
   */
  words: string[]
  /** --mode given: the task continues in that mode. */
  switchMode?: string
}

/** `modus hooks list|import`: the hooks in force, and importing Claude Code's. */
export interface HooksArgs {
  command: 'hooks'
  action: 'list' | 'import'
  workspace: string
  /** import: the Claude Code settings file (default: the workspace's .claude/settings.json). */
  from?: string
  /** import: into the workspace's .modus/hooks.yaml instead of the user's own hooks file. */
  project: boolean
  /** list: the project's hooks count as trusted. */
  trust: boolean
}

/** `modus checkpoints [TASK]`: a task's checkpoints (default: the workspace's latest task). */
export interface CheckpointsArgs {
  command: 'checkpoints'
  workspace: string
  task?: string
  json: boolean
}

/** `modus worktrees [discard NAME --yes]`: the isolated tasks' worktrees of the workspace's repository, and orphans. */
export interface WorktreesArgs {
  command: 'worktrees'
  action: 'list' | 'discard'
  workspace: string
  /** discard: the worktree's name, branch or id (or the path of an orphan). */
  target?: string
  yes: boolean
  json: boolean
}

/** `modus restore CHECKPOINT`: the restore proposed as a review, answered on the terminal (or all with --yes). */
export interface RestoreArgs {
  command: 'restore'
  workspace: string
  checkpoint: string
  yes: boolean
}

export type CliArgs =
  | RunArgs
  | PromptArgs
  | TasksArgs
  | ResumeArgs
  | HooksArgs
  | CheckpointsArgs
  | RestoreArgs
  | WorktreesArgs
  | { command: 'help' }

export class UsageError extends Error {}

const BASE_URL_VARIABLES = [...new Set(PROVIDER_KINDS.flatMap((kind) => PROVIDERS[kind].baseUrlEnv ?? []))]

export const USAGE = `Usage:
  modus run --workspace DIR [--mode SLUG] [--provider ${PROVIDER_KINDS.join('|')}]
            [--model ID] [--base-url URL] [--json] [--non-interactive] [--trust]
            [--image FILE]... "task"
      Runs a task headless: the answer streams to stdout (--json: every event as a JSON line).
      Approvals are asked on the terminal, or denied with --non-interactive.
      Without --provider the active provider from the app's settings is used.
      Keys: ${PROVIDER_ENV_KEYS.join(' / ')}, or the key stored in settings.
      Base URL: --base-url, else the provider's own in settings, else ${BASE_URL_VARIABLES.join(' /\n      ')},
      else the provider's public API.
  modus run --worktree [NAME] --workspace DIR [run options] "task"
      Runs the task isolated: in a new git worktree of the workspace's repository (under the data
      dir, never in your tree) on a new branch modus/<NAME or slug> from HEAD; prints where it is.
      The workspace's worktree settings apply (files to copy, setup command, how many run at once).
  modus worktrees [--workspace DIR] [--json]
      Lists the isolated tasks' worktrees of the workspace's repository (state, branch, changed
      files, path), then worktree folders no task owns (orphans), which are never deleted unasked.
  modus worktrees discard NAME --yes [--workspace DIR]
      Removes a worktree (its name, branch or id; or an orphan's path) and deletes its branch.
  modus tasks [--workspace DIR] [--json]
      Lists the workspace's recent tasks, newest first, one line each: id, status, mode, when, title.
  modus resume [TASK] [--workspace DIR] [run options] ["message"]
      Continues a task (id or its first characters; default the latest of the workspace): a task cut
      off by a crash or Ctrl-C, or stopped by an error, picks up where it stopped and a pending
      approval is asked again; with a message, a finished task goes on with it (--mode SLUG
      switches the task's mode with that message).
  modus resume [TASK] /condense | /checkpoint [LABEL] | /cost
      The composer's built-ins on a task between its turns: condense its context now, save a
      checkpoint, or print its tokens and cost per model (each also leaves its row in the chat).
  modus prompt [--mode SLUG] [--workspace DIR] [--model ID] [--json] [--trust]
      Prints the system prompt and tool definitions the mode sends, with their o200k token count,
      and what the MCP servers' tool schemas cost against the budget (over it, they go on demand:
      search_mcp_tools finds them). Project MCP servers start only with --trust.
  modus checkpoints [TASK] [--workspace DIR] [--json]
      Lists a task's checkpoints (default: the workspace's latest task): id, time, files changed
      since, label.
  modus restore CHECKPOINT [--workspace DIR] [--yes]
      Proposes restoring the files to that checkpoint (id or its first characters) as a review, as
      the app does: each file's hunks are shown and answered y (all), n (none) or h (hunk by hunk).
      --yes accepts every file except those changed by someone else since Modus wrote them.
  modus hooks list [--workspace DIR] [--trust]
      Lists the hooks in force: the user's (hooks.yaml in the data dir) and the workspace's own
      (.modus/hooks.yaml, run only in a trusted workspace or with --trust).
  modus hooks import [--workspace DIR] [--from FILE] [--project]
      Imports the hooks of a Claude Code settings file (default: the workspace's
      .claude/settings.json) into your own hooks.yaml (--project: the workspace's .modus/hooks.yaml).

Exit codes: 0 completed, 1 failed, 2 usage error, 3 stopped (a limit was declined),
  4 ended with calls refused (--non-interactive: what needed approval did not run), 130 cancelled.
Data dir: MODUS_DATA_DIR, else the app's (~/.config/Modus on Linux).`

const VALUE_FLAGS = new Set(['--workspace', '--mode', '--provider', '--model', '--base-url', '--from'])
const BOOLEAN_FLAGS = new Set(['--json', '--non-interactive', '--trust', '--project', '--yes'])

/** Parses argv (without node and the script); throws UsageError with a message saying what is wrong. */
export function parseArgs(argv: readonly string[], cwd: string): CliArgs {
  const [command, ...rest] = argv
  if (!command || command === '--help' || command === '-h' || command === 'help') return { command: 'help' }
  if (!['run', 'prompt', 'tasks', 'resume', 'hooks', 'checkpoints', 'restore', 'worktrees'].includes(command))
    throw new UsageError(`Unknown command "${command}".`)
  const values = new Map<string, string>()
  const flags = new Set<string>()
  const positional: string[] = []
  /** `--worktree NAME`: the word after it is its name when a task text remains besides it. */
  let worktreeName: number | null = null
  const images: string[] = []
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined]
    if (name === '--image') {
      const value = inline ?? rest[++i]
      if (value === undefined || (inline === undefined && value.startsWith('--')))
        throw new UsageError('--image needs a file.')
      images.push(value)
    } else if (VALUE_FLAGS.has(name)) {
      const value = inline ?? rest[++i]
      if (value === undefined || (inline === undefined && value.startsWith('--')))
        throw new UsageError(`${name} needs a value.`)
      values.set(name, value)
    } else if (BOOLEAN_FLAGS.has(name)) flags.add(name)
    else if (name === '--worktree') {
      flags.add(name)
      if (inline !== undefined) values.set(name, inline)
      else if (rest[i + 1] !== undefined && WORKTREE_NAME.test(rest[i + 1])) {
        worktreeName = positional.length
        positional.push(rest[++i])
      }
    } else if (name === '--help' || name === '-h') return { command: 'help' }
    else if (arg.startsWith('--')) throw new UsageError(`Unknown option ${name}.`)
    else positional.push(arg)
  }
  const mode = values.get('--mode') ?? 'code'
  const workspace = values.get('--workspace') ?? cwd
  if (command === 'prompt') {
    if (positional.length > 0) throw new UsageError(`modus prompt takes no task text (got "${positional[0]}").`)
    return {
      command: 'prompt',
      mode,
      workspace,
      json: flags.has('--json'),
      model: values.get('--model'),
      trust: flags.has('--trust')
    }
  }
  if (command === 'tasks') {
    if (positional.length > 0) throw new UsageError(`modus tasks takes no arguments (got "${positional[0]}").`)
    return { command: 'tasks', workspace, json: flags.has('--json') }
  }
  if (command === 'checkpoints') {
    if (positional.length > 1)
      throw new UsageError(`modus checkpoints takes one task id at most (got "${positional[1]}").`)
    return { command: 'checkpoints', workspace, task: positional[0], json: flags.has('--json') }
  }
  if (command === 'restore') {
    if (positional.length !== 1)
      throw new UsageError('modus restore needs one checkpoint id (modus checkpoints lists them).')
    return { command: 'restore', workspace, checkpoint: positional[0], yes: flags.has('--yes') }
  }
  if (command === 'worktrees') {
    const [action = 'list', target, ...extra] = positional
    if (action !== 'list' && action !== 'discard')
      throw new UsageError('modus worktrees takes "discard NAME" or nothing.')
    if (action === 'discard' && !target) throw new UsageError("modus worktrees discard needs the worktree's name.")
    if (extra.length > 0 || (action === 'list' && target))
      throw new UsageError(`modus worktrees ${action} takes no further arguments (got "${extra[0] ?? target}").`)
    if (action === 'discard' && !flags.has('--yes'))
      throw new UsageError(`modus worktrees discard removes the worktree and its branch: add --yes to confirm.`)
    return { command: 'worktrees', action, workspace, target, yes: flags.has('--yes'), json: flags.has('--json') }
  }
  if (command === 'hooks') {
    const [action, ...extra] = positional
    if (action !== 'list' && action !== 'import') throw new UsageError('modus hooks needs "list" or "import".')
    if (extra.length > 0) throw new UsageError(`modus hooks ${action} takes no further arguments (got "${extra[0]}").`)
    return {
      command: 'hooks',
      action,
      workspace,
      from: values.get('--from'),
      project: flags.has('--project'),
      trust: flags.has('--trust')
    }
  }
  const options = runOptions(values, flags, workspace, mode)
  if (command === 'resume') {
    return { command: 'resume', ...options, words: positional, switchMode: values.get('--mode') }
  }
  if (!values.has('--workspace')) throw new UsageError('modus run needs --workspace DIR.')
  let name = values.get('--worktree')
  if (worktreeName !== null && positional.length > 1) name = positional.splice(worktreeName, 1)[0]
  const task = positional.join(' ').trim()
  // An image alone is a task too (as in the composer).
  if (!task && images.length === 0)
    throw new UsageError('modus run needs the task text, e.g. modus run --workspace . "fix the failing test".')
  const attached = images.length > 0 ? { images } : {}
  if (flags.has('--worktree')) return { command: 'run', task, ...options, ...attached, worktree: name ? { name } : {} }
  return { command: 'run', task, ...options, ...attached }
}

/** A worktree name on the command line: one word (the name schema allows spaces only in the app). */
const WORKTREE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,59}$/

function runOptions(
  values: Map<string, string>,
  flags: Set<string>,
  workspace: string,
  mode: string
): Omit<RunArgs, 'command' | 'task'> {
  const provider = values.get('--provider')
  if (provider !== undefined && !isProviderKind(provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(', ')} (got "${provider}").`)
  }
  if (provider !== undefined && needsBaseUrl(provider) && !values.has('--base-url'))
    throw new UsageError(`--provider ${provider} needs --base-url.`)
  if ((values.has('--model') || values.has('--base-url')) && !provider) {
    throw new UsageError(
      '--model and --base-url need --provider (otherwise the active provider from settings is used).'
    )
  }
  return {
    workspace,
    mode,
    provider,
    model: values.get('--model'),
    baseUrl: values.get('--base-url'),
    json: flags.has('--json'),
    nonInteractive: flags.has('--non-interactive'),
    trust: flags.has('--trust')
  }
}

/** The model a provider runs with when `--model` is not given (none for a compatible server). */
export const defaultModelFor = (kind: ProviderKind): string | undefined => PROVIDERS[kind].defaultModel ?? undefined

const isProviderKind = (value: string): value is ProviderKind => (PROVIDER_KINDS as readonly string[]).includes(value)
