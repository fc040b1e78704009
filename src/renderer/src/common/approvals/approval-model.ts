import type { ApprovalItem } from '../../../../shared/contract/approvals'

/** Keeps the selection on the same item when the queue changes, else on its neighbour, else the first. */
export function nextSelection(
  previous: readonly ApprovalItem[],
  next: readonly ApprovalItem[],
  selectedId: string | null
): string | null {
  if (next.length === 0) return null
  if (selectedId && next.some((item) => item.id === selectedId)) return selectedId
  const oldIndex = previous.findIndex((item) => item.id === selectedId)
  if (oldIndex < 0) return next[0].id
  // The decided item left: select what now sits where it was (the next one down).
  for (let i = oldIndex + 1; i < previous.length; i++) {
    if (next.some((item) => item.id === previous[i].id)) return previous[i].id
  }
  return next[Math.min(oldIndex, next.length - 1)].id
}

/** `(3) Modus` while items wait, the plain title otherwise. */
export function titleWithCount(title: string, count: number): string {
  const base = title.replace(/^\(\d+\)\s+/, '')
  return count > 0 ? `(${count}) ${base}` : base
}

/** The other pending calls of the same assistant message ("approve the whole turn"). */
export function sameTurn(items: readonly ApprovalItem[], item: ApprovalItem): ApprovalItem[] {
  if (!item.messageId) return [item]
  return items.filter((other) => other.taskId === item.taskId && other.messageId === item.messageId)
}

export interface TaskGroup {
  taskId: string
  taskTitle: string
  items: ApprovalItem[]
}

/** Items grouped by task, tasks in order of their oldest waiting item. */
export function groupByTask(items: readonly ApprovalItem[]): TaskGroup[] {
  const groups = new Map<string, TaskGroup>()
  for (const item of [...items].sort((a, b) => a.createdAt - b.createdAt)) {
    const group = groups.get(item.taskId) ?? { taskId: item.taskId, taskTitle: item.taskTitle, items: [] }
    group.items.push(item)
    groups.set(item.taskId, group)
  }
  return [...groups.values()]
}

const KEY_ORDER = [
  'command',
  'path',
  'cwd',
  'regex',
  'file_pattern',
  'query',
  'url',
  'mode',
  'message',
  'question',
  'server_name',
  'tool_name'
]

/** The arguments worth showing at a glance, most telling first; long values are cut. */
export function keyArguments(args: unknown, limit = 4, maxLength = 160): Array<{ name: string; value: string }> {
  if (args === null || args === undefined) return []
  if (typeof args !== 'object' || Array.isArray(args))
    return [{ name: 'input', value: clip(String(JSON.stringify(args)), maxLength) }]
  const entries = Object.entries(args as Record<string, unknown>)
  const rank = (name: string): number => {
    const index = KEY_ORDER.indexOf(name)
    return index < 0 ? KEY_ORDER.length : index
  }
  return entries
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .sort((a, b) => rank(a[0]) - rank(b[0]))
    .slice(0, limit)
    .map(([name, value]) => ({
      name,
      value:
        BULK_TEXT.has(name) && typeof value === 'string'
          ? linesLabel(value)
          : clip(typeof value === 'string' ? value : JSON.stringify(value), maxLength)
    }))
}

// File bodies and patches are reviewed in the diff, not read in an argument line.
const BULK_TEXT = new Set(['content', 'diff', 'patch', 'input', 'old_string', 'new_string', 'search', 'replace'])

const linesLabel = (text: string): string => {
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  return `${lines} line${lines === 1 ? '' : 's'}, ${text.length} characters`
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/**
 * "Why was I asked", as the policy's sentence; the rule id that produced it is for a tooltip.
 * Null when it would only repeat the summary (a paused loop says it once).
 */
export function whyAsked(item: Pick<ApprovalItem, 'rule' | 'reason' | 'kind' | 'summary'>): string | null {
  const reason = item.reason.trim()
  if (!reason || reason === item.summary.trim()) return null
  return reason[0].toUpperCase() + reason.slice(1)
}

/** Whether "approve / reject the whole turn" would add anything: later calls of the message wait. */
export const hasLaterCallsInTurn = (item: Pick<ApprovalItem, 'messageId' | 'laterInTurn'>): boolean =>
  Boolean(item.messageId) && (item.laterInTurn ?? 1) > 0

/** A paused loop (cost or request cap, repetition, mistakes): asked whether to go on, not about a call. */
export const isLoopPause = (item: Pick<ApprovalItem, 'kind'>): boolean =>
  item.kind !== 'tool' && item.kind !== 'edit' && item.kind !== 'network'

/** The queue's keys that do something on this item, named as its buttons are. */
export function shortcutHint(item: Pick<ApprovalItem, 'kind' | 'messageId' | 'laterInTurn'>): string {
  const answers = isLoopPause(item)
    ? ['a continue', 'r stop the task']
    : item.kind === 'network'
      ? ['a allow once', 'r deny']
      : [item.kind === 'edit' ? 'a accept as reviewed' : 'a approve', 'r reject']
  const turn = !isLoopPause(item) && hasLaterCallsInTurn(item) ? ['A approve turn', 'R reject turn'] : []
  return ['j/k or ↓/↑ move', ...answers, ...turn].join(' · ')
}

export const KIND_LABELS: Record<ApprovalItem['kind'], string> = {
  tool: 'Tool call',
  edit: 'File edit',
  network: 'Network request from the sandbox',
  'request-limit': 'Request limit reached',
  'cost-limit': 'Cost limit reached',
  repetition: 'Repeated call',
  'mistake-limit': 'Mistake limit reached'
}

/** The page a browser launch would open: its address and the origin the policy judged. */
export interface BrowserPage {
  url: string
  /** `https://example.com`, `a file on this computer`, or why there is none. */
  origin: string
}

export function browserPageOf(item: Pick<ApprovalItem, 'tool' | 'args'>): BrowserPage | null {
  if (item.tool !== 'browser_action' || typeof item.args !== 'object' || item.args === null) return null
  const { action, url } = item.args as { action?: unknown; url?: unknown }
  if (action !== 'launch' || typeof url !== 'string') return null
  try {
    const parsed = new URL(url)
    return { url, origin: parsed.protocol === 'file:' ? 'a file on this computer' : parsed.origin }
  } catch {
    return { url, origin: 'none (not a valid URL)' }
  }
}

/**
 * Command asks that say only "nothing pre-approved this" (no allow rule matched, the mode does not
 * auto-approve, nothing to run). Every other reason names a risk (a pipe into a shell, `eval`, a
 * write outside the workspace, code of an untrusted folder outside a sandbox…): a list of what is
 * routine, so a new kind of ask looks dangerous until it is listed here.
 */
const ROUTINE_COMMAND_ASKS = new Set(['no-matching-rule', 'auto-approve-off', 'empty-command'])

/** A command ask whose reason names a risk: its reason comes first and Approve is not the filled primary button. */
export function isRiskyAsk(item: Pick<ApprovalItem, 'kind' | 'tool' | 'rule'>): boolean {
  return item.kind === 'tool' && item.tool === 'execute_command' && !ROUTINE_COMMAND_ASKS.has(item.rule)
}
