import type { AgentEvent } from '../../../shared/agent/events'
import type { ConversationMessage } from '../../../shared/agent/messages'
import type { TaskSummary } from '../../../shared/contract/task'
import type { HideReason, TaskMeta, TaskRecord } from './task-records'

export type TaskStatus = TaskSummary['status']
export type TodoItem = { text: string; status: 'pending' | 'in_progress' | 'completed' }

export interface StoredMessage {
  id: string
  message: ConversationMessage
  /** Taken out of the model's view by a condense or the sliding window; still in the log. */
  hidden: false | HideReason
}

/** A task rebuilt from its log: what the UI saw, what the model sees, and where it stopped. */
export interface ReplayedTask {
  meta: TaskMeta
  events: AgentEvent[]
  messages: StoredMessage[]
  mode: string
  todos: TodoItem[]
  /** The last recorded status; `running`/`waiting` means the process stopped mid-task. */
  lastStatus: TaskStatus
  costUsd: number | null
  requests: number
  contextTokens: number
  /** Calls that began executing and never got a result. */
  startedWithoutResult: Set<string>
  /** Approval items that were asked and never answered. */
  unansweredApprovals: Array<Extract<AgentEvent, { type: 'approval-requested' }>>
}

export function replayRecords(records: TaskRecord[]): ReplayedTask | null {
  const first = records.find((record) => record.r === 'meta')
  if (!first || first.r !== 'meta') return null
  const task: ReplayedTask = {
    meta: first.meta,
    events: [],
    messages: [],
    mode: first.meta.mode,
    todos: [],
    lastStatus: 'idle',
    costUsd: first.meta.priceKnown === false ? null : 0,
    requests: 0,
    contextTokens: 0,
    startedWithoutResult: new Set(),
    unansweredApprovals: []
  }
  const messageIndex = new Map<string, StoredMessage>()
  const approvals = new Map<string, Extract<AgentEvent, { type: 'approval-requested' }>>()
  for (const record of records) {
    if (record.r === 'meta') task.meta = { ...task.meta, ...record.meta }
    else if (record.r === 'message') {
      const stored: StoredMessage = { id: record.id, message: record.message, hidden: false }
      messageIndex.set(record.id, stored)
      insertMessage(task.messages, stored, record.before)
    } else if (record.r === 'hide') {
      for (const id of record.ids) {
        const stored = messageIndex.get(id)
        if (stored) stored.hidden = record.reason
      }
    } else if (record.r === 'state') {
      if (record.mode) task.mode = record.mode
      if (record.todos) task.todos = record.todos
    } else applyEvent(task, record.event, approvals)
  }
  task.unansweredApprovals = [...approvals.values()]
  // A call still waiting for its approval had not started, whatever older logs recorded before asking.
  for (const approval of task.unansweredApprovals)
    if (approval.callId) task.startedWithoutResult.delete(approval.callId)
  return task
}

function applyEvent(
  task: ReplayedTask,
  event: AgentEvent,
  approvals: Map<string, Extract<AgentEvent, { type: 'approval-requested' }>>
): void {
  task.events.push(event)
  switch (event.type) {
    case 'status':
      task.lastStatus = event.status
      break
    case 'usage':
      task.requests++
      task.contextTokens = event.usage.contextTokens
      task.costUsd = task.costUsd === null || event.usage.costUsd === null ? null : task.costUsd + event.usage.costUsd
      break
    case 'tool-started':
      task.startedWithoutResult.add(event.callId)
      break
    case 'tool-result':
      task.startedWithoutResult.delete(event.callId)
      break
    case 'approval-requested':
      approvals.set(event.approvalId, event)
      break
    case 'approval-resolved':
      approvals.delete(event.approvalId)
      break
    case 'mode-changed':
      task.mode = event.mode
      break
    case 'todos':
      task.todos = event.items
      break
    default:
      break
  }
}

/** The index entry for a log, as the last record left it. */
export function summarizeRecords(records: TaskRecord[]): TaskSummary | null {
  const task = replayRecords(records)
  return task ? summaryOf(task, lastEventTime(task.events) ?? task.meta.createdAt) : null
}

export function summaryOf(task: ReplayedTask, updatedAt: number): TaskSummary {
  const interrupted = task.lastStatus === 'running' || task.lastStatus === 'waiting'
  return {
    id: task.meta.id,
    title: task.meta.title,
    mode: task.mode,
    status: interrupted ? 'interrupted' : task.lastStatus,
    createdAt: task.meta.createdAt,
    updatedAt,
    parentId: task.meta.parentId,
    workspace: task.meta.workspace,
    costUsd: task.costUsd
  }
}

const lastEventTime = (events: AgentEvent[]): number | undefined => {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as { at?: number }
    if (typeof event.at === 'number') return event.at
  }
  return undefined
}

/** Appends, or places the message before `before` when that message exists. */
export function insertMessage(messages: StoredMessage[], stored: StoredMessage, before?: string): void {
  const at = before ? messages.findIndex((m) => m.id === before) : -1
  if (at >= 0) messages.splice(at, 0, stored)
  else messages.push(stored)
}
