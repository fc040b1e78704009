import type { AgentEvent, Usage } from '../../../../shared/agent/events'

/** What the chat shows of one task, folded from its AgentEvents by `reduceTaskEvent`. */
export type ChatItem =
  | { kind: 'user'; id: string; text: string }
  | { kind: 'assistant'; id: string; text: string; reasoning: string; streaming: boolean; stopReason?: string }
  | {
      kind: 'tool'
      id: string
      name: string
      argsText: string
      args?: unknown
      decision?: { decision: 'allow' | 'ask' | 'deny'; rule: string; reason: string }
      result?: { isError: boolean; text: string }
    }
  | { kind: 'error'; id: string; message: string; recoverable: boolean }
  | { kind: 'completion'; id: string; result: string }
  | { kind: 'followup'; id: string; question: string; suggestions: Array<{ answer: string; mode?: string }> }
  | { kind: 'mode'; id: string; mode: string; reason?: string }

export type TaskStatus = Extract<AgentEvent, { type: 'status' }>['status']

export interface TaskView {
  items: ChatItem[]
  status: TaskStatus
  usage: Usage | null
  todos: Extract<AgentEvent, { type: 'todos' }>['items']
  retry: { attempt: number; until: number; reason: string } | null
}

export const emptyTaskView = (): TaskView => ({ items: [], status: 'idle', usage: null, todos: [], retry: null })

/** Pure fold of one event. Streaming deltas touch only the item they belong to. */
export function reduceTaskEvent(view: TaskView, event: AgentEvent): TaskView {
  switch (event.type) {
    case 'user-message':
      return append(view, { kind: 'user', id: `u${view.items.length}`, text: event.text })
    case 'assistant-start':
      return append({ ...view, retry: null }, {
        kind: 'assistant',
        id: event.messageId,
        text: '',
        reasoning: '',
        streaming: true
      })
    case 'text-delta':
      return updateAssistant(view, event.messageId, (item) => ({ ...item, text: item.text + event.text }))
    case 'reasoning-delta':
      return updateAssistant(view, event.messageId, (item) => ({ ...item, reasoning: item.reasoning + event.text }))
    case 'assistant-end':
      return updateAssistant(view, event.messageId, (item) => ({ ...item, streaming: false, stopReason: event.stopReason }))
    case 'tool-call-partial':
      return upsertTool(view, event.callId, event.name, (item) => ({ ...item, argsText: event.argsText }))
    case 'tool-call':
      return upsertTool(view, event.callId, event.name, (item) => ({ ...item, args: event.args }))
    case 'tool-decision':
      return updateTool(view, event.callId, (item) => ({
        ...item,
        decision: { decision: event.decision, rule: event.rule, reason: event.reason }
      }))
    case 'tool-result':
      return updateTool(view, event.callId, (item) => ({ ...item, result: { isError: event.isError, text: event.text } }))
    case 'usage':
      return { ...view, usage: event.usage }
    case 'retry':
      return { ...view, retry: { attempt: event.attempt, until: event.at + event.delayMs, reason: event.reason } }
    case 'error':
      return append({ ...view, retry: null }, {
        kind: 'error',
        id: `e${view.items.length}`,
        message: event.message,
        recoverable: event.recoverable
      })
    case 'status':
      return { ...view, status: event.status, retry: event.status === 'running' ? view.retry : null }
    case 'todos':
      return { ...view, todos: event.items }
    case 'completion':
      return append(view, { kind: 'completion', id: `c${view.items.length}`, result: event.result })
    case 'followup':
      return append(view, { kind: 'followup', id: event.callId, question: event.question, suggestions: event.suggestions })
    case 'mode-changed':
      return append(view, { kind: 'mode', id: `m${view.items.length}`, mode: event.mode, reason: event.reason })
    default:
      // Events this view does not show (or a newer core's) leave it unchanged.
      return view
  }
}

const append = (view: TaskView, item: ChatItem): TaskView => ({ ...view, items: [...view.items, item] })

type Assistant = Extract<ChatItem, { kind: 'assistant' }>
type Tool = Extract<ChatItem, { kind: 'tool' }>

function replaceLast<T extends ChatItem>(
  view: TaskView,
  match: (item: ChatItem) => item is T,
  update: (item: T) => ChatItem
): TaskView | null {
  for (let i = view.items.length - 1; i >= 0; i--) {
    const item = view.items[i]
    if (match(item)) {
      const items = view.items.slice()
      items[i] = update(item)
      return { ...view, items }
    }
  }
  return null
}

const updateAssistant = (view: TaskView, id: string, update: (item: Assistant) => Assistant): TaskView =>
  replaceLast(view, (item): item is Assistant => item.kind === 'assistant' && item.id === id, update) ?? view

const updateTool = (view: TaskView, id: string, update: (item: Tool) => Tool): TaskView =>
  replaceLast(view, (item): item is Tool => item.kind === 'tool' && item.id === id, update) ?? view

const upsertTool = (view: TaskView, id: string, name: string, update: (item: Tool) => Tool): TaskView =>
  replaceLast(view, (item): item is Tool => item.kind === 'tool' && item.id === id, update) ??
  append(view, update({ kind: 'tool', id, name, argsText: '' }))
