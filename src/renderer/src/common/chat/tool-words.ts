import type { IconName } from '../../components/icons'
import { countedOf } from '../plural'
import type { ToolItem, ToolPhase } from './task-view'

/**
 * A tool card's title in words: what the call did (or is about to do) and to what, e.g. "Ran
 * `npm test` — exit 0" or "Edited `src/math.js` — 2 of 3 hunks". The raw tool name stays on hover.
 */
export interface ToolTitle {
  icon: IconName
  /** "Ran", "Running", "Run" — by how far the call got. */
  verb: string
  /** The command, path, query…: shown as code unless `plainTarget`. */
  target?: string
  plainTarget?: boolean
  /** What came of it, after a dash: "exit 0", "2 of 3 hunks". */
  outcome?: string
}

type Tense = 'past' | 'now' | 'ask'

/** Verbs by tense: past once it ran, present while running, bare while it waits or was not run. */
interface Words {
  icon: IconName
  verbs: Record<Tense, string>
  target: (args: Record<string, unknown>) => string | undefined
  plainTarget?: boolean
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined
const pathOf = (args: Record<string, unknown>): string | undefined => text(args.path) ?? text(args.file_path)
const verbs = (past: string, now: string, ask: string): Record<Tense, string> => ({ past, now, ask })

const EDIT: Words = { icon: 'pencil', verbs: verbs('Edited', 'Editing', 'Edit'), target: pathOf }

const WORDS: Record<string, Words> = {
  execute_command: { icon: 'terminal', verbs: verbs('Ran', 'Running', 'Run'), target: (a) => text(a.command) },
  read_command_output: {
    icon: 'terminal',
    verbs: verbs('Read the output of', 'Reading the output of', 'Read the output of'),
    target: (a) => text(a.command_id) ?? text(a.id)
  },
  write_to_file: { icon: 'pencil', verbs: verbs('Wrote', 'Writing', 'Write'), target: pathOf },
  apply_diff: EDIT,
  edit: EDIT,
  apply_patch: { icon: 'pencil', verbs: verbs('Patched', 'Patching', 'Patch'), target: pathOf },
  read_file: { icon: 'file', verbs: verbs('Read', 'Reading', 'Read'), target: pathOf },
  list_files: { icon: 'folder', verbs: verbs('Listed', 'Listing', 'List'), target: (a) => pathOf(a) ?? '.' },
  list_code_definition_names: {
    icon: 'list',
    verbs: verbs('Listed definitions in', 'Listing definitions in', 'List definitions in'),
    target: pathOf
  },
  search_files: {
    icon: 'search',
    verbs: verbs('Searched for', 'Searching for', 'Search for'),
    target: (a) => text(a.regex) ?? text(a.pattern)
  },
  codebase_search: {
    icon: 'search',
    verbs: verbs('Searched the code for', 'Searching the code for', 'Search the code for'),
    target: (a) => text(a.query)
  },
  browser_action: {
    icon: 'globe',
    verbs: verbs('Browser:', 'Browser:', 'Browser:'),
    target: (a) => [text(a.action), text(a.url)].filter(Boolean).join(' '),
    plainTarget: true
  },
  use_mcp_tool: {
    icon: 'plug',
    verbs: verbs('Used', 'Using', 'Use'),
    target: (a) => [text(a.tool_name), text(a.server_name)].filter(Boolean).join(' of ')
  },
  access_mcp_resource: {
    icon: 'plug',
    verbs: verbs('Read resource', 'Reading resource', 'Read resource'),
    target: (a) => text(a.uri)
  },
  search_mcp_tools: {
    icon: 'search',
    verbs: verbs('Looked up MCP tools', 'Looking up MCP tools', 'Look up MCP tools'),
    target: () => undefined
  },
  ask_followup_question: {
    icon: 'message',
    verbs: verbs('Asked you', 'Asking you', 'Ask you'),
    target: () => undefined
  },
  attempt_completion: { icon: 'check', verbs: verbs('Finished', 'Finishing', 'Finish'), target: () => undefined },
  switch_mode: {
    icon: 'sparkle',
    verbs: verbs('Switched to mode', 'Switching to mode', 'Switch to mode'),
    target: (a) => text(a.mode_slug) ?? text(a.mode)
  },
  new_task: {
    icon: 'sparkle',
    verbs: verbs('Started a subtask in', 'Starting a subtask in', 'Start a subtask in'),
    target: (a) => text(a.mode)
  },
  update_todo_list: {
    icon: 'list',
    verbs: verbs('Updated the to-do list', 'Updating the to-do list', 'Update the to-do list'),
    target: () => undefined
  }
}

const TENSE: Record<ToolPhase, Tense> = {
  streaming: 'ask',
  queued: 'ask',
  pending: 'ask',
  waiting: 'ask',
  denied: 'ask',
  rejected: 'ask',
  skipped: 'ask',
  cancelled: 'ask',
  interrupted: 'now',
  running: 'now',
  done: 'past',
  partial: 'past',
  edited: 'past',
  failed: 'past'
}

/** A chat card's title: the words for the call by how far it got, and what came of it. */
export function toolTitle(item: ToolItem, phase: ToolPhase, args: unknown): ToolTitle {
  return { ...titleOf(item.name, TENSE[phase], args), outcome: outcomeOf(item, phase) }
}

/** A call waiting for an answer (the approval queue): "Write `src/a.ts`", "Run `npm test`". */
export const askTitle = (name: string, args: unknown): ToolTitle => titleOf(name, 'ask', args)

/** What a call did, without its target (the Changes list names the file itself): "Wrote", "Edited". */
export const pastVerbOf = (name: string): string => {
  const title = titleOf(name, 'past', {})
  return WORDS[name] ? title.verb : `${title.verb} ${name}`
}

/** A tool the table does not know (an MCP server's own) is named by its raw name. */
const UNKNOWN: Record<Tense, string> = verbs('Used', 'Using', 'Use')

function titleOf(name: string, tense: Tense, args: unknown): ToolTitle {
  const words = WORDS[name]
  if (!words) return { icon: name.startsWith('mcp') ? 'plug' : 'sparkle', verb: UNKNOWN[tense], target: name }
  const record = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {}
  return {
    icon: words.icon,
    verb: words.verbs[tense],
    target: clipTarget(words.target(record)),
    plainTarget: words.plainTarget
  }
}

/** A title is one line: the first line of the target, cut at a word with an ellipsis. */
function clipTarget(target: string | undefined, max = 80): string | undefined {
  return target ? clipLine(target, max) : target
}

/** The first line of a text, cut at a word boundary (mid-word only when one word is that long) with an ellipsis. */
export function clipLine(target: string, max: number): string {
  const line = target.split('\n', 1)[0]
  if (line.length <= max && line === target) return line
  const space = line.lastIndexOf(' ', max)
  const cut = line.length > max ? line.slice(0, space > max / 2 ? space : max) : line
  return `${cut.trimEnd()}…`
}

/** What came of the call, when there is a figure to give: the exit code, the hunks written. */
function outcomeOf(item: ToolItem, phase: ToolPhase): string | undefined {
  if (phase !== 'done' && phase !== 'partial' && phase !== 'edited' && phase !== 'failed') return undefined
  if (item.result?.exitCode !== undefined) return `exit ${item.result.exitCode}`
  const counted = item.changes.filter((change) => change.hunksTotal !== undefined)
  const total = counted.reduce((sum, change) => sum + (change.hunksTotal ?? 0), 0)
  const accepted = counted.reduce((sum, change) => sum + (change.hunksAccepted ?? 0), 0)
  if (total > 1 || accepted < total) return countedOf(accepted, total, 'hunk')
  return undefined
}
