import { randomUUID } from 'node:crypto'
import type { AgentEvent } from '../../../shared/agent/events'
import type { ConversationMessage, ImageBlock, ToolResultBlock } from '../../../shared/agent/messages'
import type { TaskSummary } from '../../../shared/contract/task'
import type { TaskLogWriter } from '../store/task-log'
import type { HideReason, TaskMeta } from '../store/task-records'
import {
  insertMessage,
  type ReplayedTask,
  type StoredMessage,
  type TaskStatus,
  type TodoItem
} from '../store/task-replay'

/**
 * One task's live state: the model's history, the events the user saw, counters, and the log they
 * are written to as they happen. The loop changes it only through these methods, so the log and
 * memory never disagree.
 */
export interface TaskSession {
  readonly id: string
  readonly meta: TaskMeta
  mode: string
  todos: TodoItem[]
  status: TaskStatus
  readonly history: StoredMessage[]
  readonly events: AgentEvent[]
  /** Results of tool calls by call id (images included), until they go into a user message. */
  readonly results: Map<string, ToolResultBlock>
  readonly startedCalls: Set<string>
  counters: SessionCounters
  /** Texts the user sent while the loop was busy; they go into the next user message. */
  queuedUserTexts: string[]
  /** Images the user attached that have not reached the model yet; they go into the next user message. */
  queuedUserImages: ImageBlock[]
  /** Ends the wait before a retried request early ("Retry now"); null when nothing waits. */
  retryNow: (() => void) | null
  emit(event: AgentEvent): void
  addMessage(message: ConversationMessage, before?: string): StoredMessage
  hide(ids: string[], reason: HideReason): void
  setMode(slug: string, reason?: string): void
  setTodos(items: TodoItem[]): void
  setStatus(status: TaskStatus): void
  summary(): TaskSummary
  checkpoint(): void
  close(): void
  logSize(): number
}

export interface SessionCounters {
  requests: number
  /** Request count and cost when the user last approved going past a cap. */
  requestsAtApproval: number
  costUsd: number | null
  costAtApproval: number
  mistakes: number
  noToolStreak: number
  /** Context size the provider reported for the last request. */
  contextTokens: number
  /** History length at the last request, so only new messages are estimated. */
  historyAtLastRequest: number
}

export interface SessionHooks {
  onEvent(session: TaskSession, event: AgentEvent): void
  onSummary(session: TaskSession): void
}

export function createTaskSession(
  init: { meta: TaskMeta; log: TaskLogWriter; replayed?: ReplayedTask; now?: () => number },
  hooks: SessionHooks
): TaskSession {
  const now = init.now ?? Date.now
  const replayed = init.replayed
  const log = init.log
  let updatedAt = now()
  const session: TaskSession = {
    id: init.meta.id,
    meta: init.meta,
    mode: replayed?.mode ?? init.meta.mode,
    todos: replayed?.todos ?? [],
    status: 'idle',
    history: replayed ? replayed.messages : [],
    events: replayed ? replayed.events : [],
    results: new Map(),
    startedCalls: new Set(replayed?.startedWithoutResult ?? []),
    counters: {
      requests: replayed?.requests ?? 0,
      requestsAtApproval: 0,
      costUsd: replayed ? replayed.costUsd : init.meta.priceKnown === false ? null : 0,
      costAtApproval: 0,
      mistakes: 0,
      noToolStreak: 0,
      contextTokens: replayed?.contextTokens ?? 0,
      historyAtLastRequest: replayed?.messages.length ?? 0
    },
    queuedUserTexts: [],
    queuedUserImages: [],
    retryNow: null,
    emit(event) {
      // Partial tool arguments and a command's live output are for the live view only; the complete
      // tool-call event and the tool result replace them.
      if (event.type === 'tool-call-partial' || event.type === 'tool-output') return hooks.onEvent(session, event)
      let unsaved: Error | null = null
      try {
        log.append({ r: 'event', event })
      } catch (error) {
        unsaved = error instanceof Error ? error : new Error(String(error))
      }
      // The user still sees what happened (a log that cannot be written, above all); the run stops on the throw.
      pushEvent(session.events, event)
      if (event.type === 'tool-result') session.startedCalls.delete(event.callId)
      if (event.type === 'tool-started') session.startedCalls.add(event.callId)
      if ('at' in event) updatedAt = event.at
      hooks.onEvent(session, event)
      if (unsaved) throw unsaved
    },
    addMessage(message, before) {
      const stored: StoredMessage = { id: randomUUID(), message, hidden: false }
      log.append({ r: 'message', id: stored.id, message, before })
      insertMessage(session.history, stored, before)
      return stored
    },
    hide(ids, reason) {
      if (ids.length === 0) return
      log.append({ r: 'hide', ids, reason })
      const set = new Set(ids)
      for (const stored of session.history) if (set.has(stored.id)) stored.hidden = reason
    },
    setMode(slug, reason) {
      if (slug === session.mode) return
      session.mode = slug
      session.emit({ type: 'mode-changed', at: now(), mode: slug, reason })
      hooks.onSummary(session)
    },
    setTodos(items) {
      session.todos = items
      session.emit({ type: 'todos', at: now(), items })
    },
    setStatus(status) {
      if (status === session.status) return
      session.status = status
      session.emit({ type: 'status', at: now(), status })
      if (status !== 'running') log.checkpoint()
      hooks.onSummary(session)
    },
    summary: () => ({
      id: session.id,
      title: session.meta.title,
      mode: session.mode,
      status: session.status,
      createdAt: session.meta.createdAt,
      updatedAt,
      parentId: session.meta.parentId,
      workspace: session.meta.workspace,
      costUsd: session.counters.costUsd
    }),
    checkpoint: () => log.checkpoint(),
    close: () => log.close(),
    logSize: () => log.size()
  }
  return session
}

/** Consecutive deltas of one message are merged in memory too, so a replay is not thousands of events. */
function pushEvent(events: AgentEvent[], event: AgentEvent): void {
  const last = events[events.length - 1]
  if (
    last &&
    (event.type === 'text-delta' || event.type === 'reasoning-delta') &&
    last.type === event.type &&
    last.messageId === event.messageId
  ) {
    events[events.length - 1] = { ...last, text: last.text + event.text }
    return
  }
  events.push(event)
}

export const visibleMessages = (session: TaskSession): StoredMessage[] => session.history.filter((m) => !m.hidden)
