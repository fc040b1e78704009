import { countedOf } from '../../common/plural'
import type { AgentEvent, ApprovalKind, ModelCost, Usage } from '../../../../shared/agent/events'

/** The approval a tool call (or a paused loop) is waiting on, and how it ended. */
export interface ApprovalState {
  approvalId: string
  kind: ApprovalKind
  summary: string
  rule: string
  reason: string
  outcome?: 'approved' | 'rejected' | 'cancelled'
  /** The user's reason (reject) or guidance (approve). */
  answer?: string
}

/** A sandboxed command's connection put to the user, on the card of the call that ran it. */
export interface NetworkAskState {
  approvalId: string
  host: string
  port?: number
  command: string
  /** Unset while it waits. */
  outcome?: Extract<AgentEvent, { type: 'network-ask-ended' }>['outcome']
  /** How it ended, in a sentence ("curl gave up waiting for approval of … after 8 s."). */
  text?: string
}

export interface ChangeState {
  changeId: string
  path: string
  status: Extract<AgentEvent, { type: 'change' }>['status']
  auto: boolean
  detail?: string
  hunksAccepted?: number
  hunksTotal?: number
  editedByUser?: boolean
}

export interface ToolItem {
  kind: 'tool'
  id: string
  messageId: string
  name: string
  argsText: string
  args?: unknown
  decision?: { decision: 'allow' | 'ask' | 'deny'; rule: string; reason: string }
  approval?: ApprovalState
  started: boolean
  /** Its assistant message has ended: complete, waiting for the calls before it. */
  messageEnded?: boolean
  result?: {
    isError: boolean
    text: string
    images?: Array<{ mediaType: string; dataBase64: string }>
    outcome?: 'skipped' | 'cancelled' | 'interrupted'
    exitCode?: number
  }
  /** Last progress a long-running tool reported (MCP). */
  progress?: { progress: number; total?: number; message?: string }
  /** The live tail of its command's output (execute_command): its last lines, and how many it printed. */
  output?: { tail: string; lines: number }
  changes: ChangeState[]
  /** Connections its sandboxed command asked about (answered here or in the queue). */
  networkAsks?: NetworkAskState[]
}

/** What the chat shows of one task, folded from its AgentEvents by `reduceTaskEvent(s)`. */
export type ChatItem =
  | { kind: 'user'; id: string; text: string; images?: Array<{ mediaType: string; dataBase64: string }> }
  /** Files and conversation can be taken back to here (before a turn, or saved by the user: `changedSinceLast`). */
  | { kind: 'checkpoint'; id: string; checkpointId: string; label: string; changedSinceLast?: number }
  | {
      kind: 'assistant'
      id: string
      text: string
      reasoning: string
      streaming: boolean
      stopReason?: string
      cutOff?: boolean
    }
  | ToolItem
  | { kind: 'error'; id: string; message: string; recoverable: boolean; failure?: string }
  | { kind: 'completion'; id: string; result: string }
  | { kind: 'followup'; id: string; question: string; suggestions: Array<{ answer: string; mode?: string }> }
  | { kind: 'mode'; id: string; mode: string; reason?: string }
  /** Files the user put back (a checkpoint restore or a revert), after the review. */
  | { kind: 'restored'; id: string; how: 'restore' | 'revert'; label: string; files: string[] }
  /** An approval that is not about one tool call: a cost/request cap, repetition or the mistake limit. */
  | { kind: 'approval'; id: string; approval: ApprovalState }
  | {
      kind: 'condensed'
      id: string
      summary: string
      hiddenMessages: number
      tokensBefore: number
      tokensAfter?: number
      requested?: boolean
    }
  /** The task's tokens and cost per model, as the user asked for them (`/cost`). */
  | { kind: 'cost'; id: string; models: ModelCost[] }
  | { kind: 'truncated'; id: string; hiddenMessages: number }
  | {
      kind: 'subtask'
      id: string
      childId: string
      mode: string
      status: 'started' | 'completed' | 'failed'
      message?: string
      result?: string
    }

export type TaskStatus = Extract<AgentEvent, { type: 'status' }>['status']
export type TodoItem = Extract<AgentEvent, { type: 'todos' }>['items'][number]

/** Sums over every model request of the task; `context*` are the latest request's. */
export interface UsageTotals {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  /** null once any request had an unknown price. */
  costUsd: number | null
  contextTokens: number
  contextWindow: number | null
  requests: number
}

export interface TaskView {
  items: ChatItem[]
  status: TaskStatus
  usage: UsageTotals | null
  todos: TodoItem[]
  retry: { attempt: number; until: number; reason: string; status?: number } | null
  mode: string | null
  /** The model of the latest reply. */
  model: string | null
}

export const emptyTaskView = (): TaskView => ({
  items: [],
  status: 'idle',
  usage: null,
  todos: [],
  retry: null,
  mode: null,
  model: null
})

/** Pure fold of one event. */
export const reduceTaskEvent = (view: TaskView, event: AgentEvent): TaskView => reduceTaskEvents(view, [event])

/**
 * Pure fold of a batch (a replay, or the events of one animation frame): the item list is copied once
 * per batch, so replaying a 5,000-message task stays linear.
 */
export function reduceTaskEvents(view: TaskView, events: readonly AgentEvent[]): TaskView {
  if (events.length === 0) return view
  const draft: TaskView = { ...view, items: view.items.slice() }
  for (const event of events) applyEvent(draft, event)
  return draft
}

function applyEvent(draft: TaskView, event: AgentEvent): void {
  const items = draft.items
  switch (event.type) {
    case 'user-message':
      items.push({
        kind: 'user',
        id: `u${items.length}`,
        text: event.text,
        ...(event.images?.length ? { images: event.images } : {})
      })
      return
    case 'checkpoint':
      items.push({
        kind: 'checkpoint',
        id: `cp:${event.checkpointId}`,
        checkpointId: event.checkpointId,
        label: event.label,
        ...(event.requested ? { changedSinceLast: event.changedSinceLast ?? 0 } : {})
      })
      return
    case 'files-restored':
      items.push({
        kind: 'restored',
        id: `restored${items.length}`,
        how: event.how,
        label: event.label,
        files: event.files
      })
      return
    case 'rewound': {
      // Everything after the checkpoint is gone from the conversation; the marker stays.
      const index = findLast(items, (item) => item.kind === 'checkpoint' && item.checkpointId === event.checkpointId)
      if (index >= 0) items.length = index + 1
      return
    }
    case 'assistant-start':
      draft.retry = null
      draft.model = event.model
      items.push({ kind: 'assistant', id: event.messageId, text: '', reasoning: '', streaming: true })
      return
    case 'text-delta':
      return updateAssistant(items, event.messageId, (item) => ({ ...item, text: item.text + event.text }))
    case 'reasoning-delta':
      return updateAssistant(items, event.messageId, (item) => ({ ...item, reasoning: item.reasoning + event.text }))
    case 'assistant-end':
      markMessageEnded(items, event.messageId)
      return updateAssistant(items, event.messageId, (item) => ({
        ...item,
        streaming: false,
        stopReason: event.stopReason,
        cutOff: event.cutOff
      }))
    case 'tool-call-partial':
      // Deltas: appended only where they continue the text this view has (a tab that joined mid-stream waits for the tool-call).
      return upsertTool(items, event.callId, event.messageId, event.name, (item) =>
        item.argsText.length === event.argsOffset ? { ...item, argsText: item.argsText + event.argsDelta } : item
      )
    case 'tool-call':
      return upsertTool(items, event.callId, event.messageId, event.name, (item) => ({ ...item, args: event.args }))
    case 'tool-decision':
      return updateTool(items, event.callId, (item) => ({
        ...item,
        decision: { decision: event.decision, rule: event.rule, reason: event.reason }
      }))
    case 'tool-started':
      return updateTool(items, event.callId, (item) => ({ ...item, started: true }))
    case 'tool-result':
      return updateTool(items, event.callId, (item) => ({
        ...item,
        result: {
          isError: event.isError,
          text: event.text,
          images: event.images,
          outcome: event.outcome,
          exitCode: event.exitCode
        }
      }))
    case 'tool-progress':
      return updateTool(items, event.callId, (item) => ({
        ...item,
        progress: { progress: event.progress, total: event.total, message: event.message }
      }))
    case 'tool-output':
      // Each event carries the whole tail, so a view that joined mid-command is right from the next one.
      return updateTool(items, event.callId, (item) =>
        item.result ? item : { ...item, output: { tail: event.tail, lines: event.lines } }
      )
    case 'approval-requested': {
      const approval: ApprovalState = {
        approvalId: event.approvalId,
        kind: event.kind,
        summary: event.summary,
        rule: event.rule,
        reason: event.reason
      }
      if (event.callId && updateLast(items, isTool(event.callId), (item) => ({ ...item, approval }))) return
      items.push({ kind: 'approval', id: `a:${event.approvalId}`, approval })
      return
    }
    case 'approval-resolved':
      return resolveApproval(items, event.approvalId, event.outcome, event.reason)
    case 'network-ask': {
      const ask: NetworkAskState = {
        approvalId: event.approvalId,
        host: event.host,
        port: event.port,
        command: event.command
      }
      if (!event.callId) return
      return updateTool(items, event.callId, (item) =>
        item.networkAsks?.some((known) => known.approvalId === ask.approvalId)
          ? item
          : { ...item, networkAsks: [...(item.networkAsks ?? []), ask] }
      )
    }
    case 'network-ask-ended':
      updateLast(
        items,
        (item): item is ToolItem =>
          item.kind === 'tool' && !!item.networkAsks?.some((ask) => ask.approvalId === event.approvalId),
        (item) => ({
          ...item,
          networkAsks: item.networkAsks!.map((ask) =>
            ask.approvalId === event.approvalId ? { ...ask, outcome: event.outcome, text: event.text } : ask
          )
        })
      )
      return
    case 'change': {
      const change: ChangeState = {
        changeId: event.changeId,
        path: event.path,
        status: event.status,
        auto: event.auto,
        detail: event.detail,
        hunksAccepted: event.hunksAccepted,
        hunksTotal: event.hunksTotal,
        editedByUser: event.editedByUser
      }
      return updateTool(items, event.callId, (item) => ({
        ...item,
        changes: item.changes.some((c) => c.changeId === change.changeId)
          ? item.changes.map((c) => (c.changeId === change.changeId ? change : c))
          : [...item.changes, change]
      }))
    }
    case 'usage':
      draft.usage = addUsage(draft.usage, event.usage)
      return
    case 'retry':
      draft.retry = {
        attempt: event.attempt,
        until: event.at + event.delayMs,
        reason: event.reason,
        status: event.status
      }
      return
    case 'error':
      draft.retry = null
      items.push({
        kind: 'error',
        id: `e${items.length}`,
        message: event.message,
        recoverable: event.recoverable,
        failure: event.failure
      })
      return
    case 'status':
      draft.status = event.status
      if (event.status !== 'running') draft.retry = null
      return
    case 'todos':
      draft.todos = event.items
      return
    case 'completion':
      items.push({ kind: 'completion', id: `c${items.length}`, result: event.result })
      return
    case 'followup':
      items.push({
        kind: 'followup',
        id: `f:${event.callId}`,
        question: event.question,
        suggestions: event.suggestions
      })
      return
    case 'mode-changed':
      draft.mode = event.mode
      items.push({ kind: 'mode', id: `m${items.length}`, mode: event.mode, reason: event.reason })
      return
    case 'context-condensed':
      items.push({
        kind: 'condensed',
        id: `k${items.length}`,
        summary: event.summary,
        hiddenMessages: event.hiddenMessages,
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
        requested: event.requested
      })
      return
    case 'cost-report':
      items.push({ kind: 'cost', id: `cost${items.length}`, models: event.models })
      return
    case 'context-truncated':
      items.push({ kind: 'truncated', id: `t${items.length}`, hiddenMessages: event.hiddenMessages })
      return
    case 'subtask': {
      const next = {
        kind: 'subtask' as const,
        id: `s:${event.childId}`,
        childId: event.childId,
        mode: event.mode,
        status: event.status,
        message: event.message,
        result: event.result
      }
      const known = updateLast(
        items,
        (item): item is Subtask => item.kind === 'subtask' && item.childId === event.childId,
        (previous) => ({ ...next, message: next.message ?? previous.message })
      )
      if (!known) items.push(next)
      return
    }
    default:
      // Events this view does not show (or a newer core's) leave it unchanged.
      return
  }
}

export function addUsage(totals: UsageTotals | null, usage: Usage): UsageTotals {
  const base = totals ?? {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    contextTokens: 0,
    contextWindow: null,
    requests: 0
  }
  return {
    inputTokens: base.inputTokens + usage.inputTokens,
    outputTokens: base.outputTokens + usage.outputTokens,
    cacheReadTokens: base.cacheReadTokens + (usage.cacheReadTokens ?? 0),
    cacheWriteTokens: base.cacheWriteTokens + (usage.cacheWriteTokens ?? 0),
    costUsd: base.costUsd === null || usage.costUsd === null ? null : base.costUsd + usage.costUsd,
    contextTokens: usage.contextTokens,
    contextWindow: usage.contextWindow,
    requests: base.requests + 1
  }
}

type Assistant = Extract<ChatItem, { kind: 'assistant' }>
type Subtask = Extract<ChatItem, { kind: 'subtask' }>
type ApprovalItem = Extract<ChatItem, { kind: 'approval' }>

// Deltas nearly always target the newest items, so a backwards scan is effectively constant time.
function findLast(items: ChatItem[], match: (item: ChatItem) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (match(items[i])) return i
  return -1
}

/**
 * The one shape every update of the fold takes: the newest item that matches becomes its update.
 * False when none matches (the caller may then add one).
 */
function updateLast<T extends ChatItem>(
  items: ChatItem[],
  match: (item: ChatItem) => item is T,
  update: (item: T) => T
): boolean {
  const index = findLast(items, match)
  if (index < 0) return false
  items[index] = update(items[index] as T)
  return true
}

const isTool =
  (id: string) =>
  (item: ChatItem): item is ToolItem =>
    item.kind === 'tool' && item.id === id

function updateAssistant(items: ChatItem[], id: string, update: (item: Assistant) => Assistant): void {
  updateLast(items, (item): item is Assistant => item.kind === 'assistant' && item.id === id, update)
}

/** The calls of an ended message are complete even before the loop reaches them (they wait in order). */
function markMessageEnded(items: ChatItem[], messageId: string): void {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]
    if (item.kind === 'assistant' && item.id === messageId) return
    if (item.kind === 'tool' && item.messageId === messageId && !item.messageEnded)
      items[i] = { ...item, messageEnded: true }
  }
}

function updateTool(items: ChatItem[], id: string, update: (item: ToolItem) => ToolItem): void {
  updateLast(items, isTool(id), update)
}

function upsertTool(
  items: ChatItem[],
  id: string,
  messageId: string,
  name: string,
  update: (item: ToolItem) => ToolItem
): void {
  if (!updateLast(items, isTool(id), (item) => update({ ...item, name })))
    items.push(update({ kind: 'tool', id, messageId, name, argsText: '', started: false, changes: [] }))
}

function resolveApproval(
  items: ChatItem[],
  approvalId: string,
  outcome: NonNullable<ApprovalState['outcome']>,
  answer: string | undefined
): void {
  updateLast(
    items,
    (item): item is ToolItem | ApprovalItem =>
      (item.kind === 'tool' || item.kind === 'approval') && item.approval?.approvalId === approvalId,
    (item) => ({ ...item, approval: { ...item.approval!, outcome, answer } })
  )
}

/** What a tool card says about where its call stands. */
export type ToolPhase =
  | 'streaming'
  | 'queued'
  | 'waiting'
  | 'denied'
  | 'rejected'
  | 'running'
  | 'done'
  | 'partial'
  | 'edited'
  | 'failed'
  | 'skipped'
  | 'cancelled'
  | 'interrupted'
  | 'pending'

export function toolPhase(item: ToolItem, taskStatus: TaskStatus): ToolPhase {
  if (item.decision?.decision === 'deny') return 'denied'
  if (item.approval?.outcome === 'cancelled' || item.result?.outcome === 'cancelled') return 'cancelled'
  if (item.approval?.outcome === 'rejected') return 'rejected'
  if (item.result) return resultPhase(item)
  if (taskStatus !== 'running' && taskStatus !== 'waiting')
    return taskStatus === 'cancelled' ? 'cancelled' : 'interrupted'
  if (item.approval && !item.approval.outcome) return 'waiting'
  if (item.networkAsks?.some((ask) => !ask.outcome)) return 'waiting'
  if (item.started) return 'running'
  if (item.args !== undefined) return 'pending'
  return item.messageEnded ? 'queued' : 'streaming'
}

function resultPhase(item: ToolItem): ToolPhase {
  const result = item.result!
  if (result.outcome) return result.outcome
  if (result.isError || (result.exitCode !== undefined && result.exitCode !== 0)) return 'failed'
  const changes = item.changes
  if (changes.some((change) => change.editedByUser)) return 'edited'
  if (changes.some((change) => change.status === 'partially-applied')) return 'partial'
  if (changes.length > 0 && changes.every((change) => change.status === 'rejected')) return 'rejected'
  return 'done'
}

const PHASE_LABEL: Record<ToolPhase, string> = {
  streaming: 'writing…',
  queued: 'queued',
  pending: 'checking',
  waiting: 'waiting for approval',
  running: 'running',
  done: 'done',
  partial: 'applied in part',
  edited: 'edited by you',
  failed: 'failed',
  skipped: 'skipped',
  cancelled: 'cancelled',
  denied: 'denied',
  rejected: 'rejected',
  interrupted: 'not finished'
}

/** The chip of a tool card: "failed (exit 1)", "applied 1 of 2 hunks", "skipped", … */
export function phaseLabel(item: ToolItem, phase: ToolPhase): string {
  const exitCode = item.result?.exitCode
  if (phase === 'failed' && exitCode !== undefined && exitCode !== 0) return `failed (exit ${exitCode})`
  if (phase === 'partial') {
    const counted = item.changes.filter((change) => change.hunksTotal !== undefined)
    const accepted = counted.reduce((sum, change) => sum + (change.hunksAccepted ?? 0), 0)
    const total = counted.reduce((sum, change) => sum + (change.hunksTotal ?? 0), 0)
    if (total > 0) return `applied ${countedOf(accepted, total, 'hunk')}`
  }
  return PHASE_LABEL[phase]
}

/** One file of an edit call in the user's words. */
export function changeLabel(change: ChangeState, callCancelled: boolean): string {
  switch (change.status) {
    case 'proposed':
      return 'waiting for your review'
    case 'applied':
      return change.editedByUser ? 'applied with your edits' : 'applied'
    case 'partially-applied':
      return change.hunksTotal !== undefined
        ? `applied ${countedOf(change.hunksAccepted ?? 0, change.hunksTotal, 'hunk')}`
        : 'applied in part'
    case 'rejected':
      return callCancelled ? 'not written (cancelled)' : 'rejected'
    case 'reverted':
      return 'reverted'
    case 'failed':
      return 'failed'
  }
}

/** The decision line of a tool card, in sentences; `rule` is the policy's id for it (shown on hover). */
export function decisionLabel(item: ToolItem): { text: string; rule?: string } | null {
  const approval = item.approval
  if (approval?.outcome === 'approved') return { text: 'Approved by you', rule: approval.rule }
  if (approval?.outcome === 'rejected')
    return { text: approval.answer ? `Rejected by you: ${approval.answer}` : 'Rejected by you', rule: approval.rule }
  if (approval?.outcome === 'cancelled')
    return { text: 'The task was stopped before you answered', rule: approval.rule }
  if (approval) return { text: `Waiting for your approval: ${sentence(approval.reason)}`, rule: approval.rule }
  if (!item.decision) return null
  const { decision, rule, reason } = item.decision
  // Most allow reasons already say so ("Reads are auto-approved in this mode").
  if (decision === 'allow')
    return {
      text: /auto-approv|always allowed/i.test(reason) ? sentence(reason) : `Auto-approved: ${sentence(reason)}`,
      rule
    }
  if (decision === 'deny') return { text: `Denied: ${sentence(reason)}`, rule }
  return { text: `Approved with its turn: ${sentence(reason)}`, rule }
}

/** A reason as a sentence: first letter up, a full stop at the end. */
export function sentence(text: string): string {
  const trimmed = text.trim()
  if (!trimmed) return trimmed
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1)
  return /[.!?…)]$/.test(capital) ? capital : `${capital}.`
}
