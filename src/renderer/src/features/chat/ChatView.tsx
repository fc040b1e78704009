import { useCallback, useMemo, type ReactNode } from 'react'
import { Composer } from './Composer'
import { ChatItemView } from './ChatItemView'
import { useActiveTaskView, useChatStore } from '../../common/chat/chat-store'
import { RetryRow } from './RetryRow'
import { TaskBar } from './TaskBar'
import { TodoList } from './TodoList'
import type { ChatItem } from '../../common/chat/task-view'
import { VirtualList } from './virtual/VirtualList'
import './chat.css'

const keyOf = (item: ChatItem): string => item.id

function estimateHeight(item: ChatItem): number {
  switch (item.kind) {
    case 'assistant':
      return 56 + Math.ceil(item.text.length / 90) * 20
    case 'user':
      return 44 + Math.ceil(item.text.length / 90) * 20
    case 'tool':
      return 96
    default:
      return 52
  }
}

/**
 * The conversation of the active task (windowed), its meters and todo list, and the composer;
 * `start` is what a new task shows before its first message (composed by the app from several features).
 */
export function ChatView({ start }: { start?: ReactNode }): ReactNode {
  const view = useActiveTaskView()
  const taskId = useChatStore((state) => state.activeTaskId)
  const all = view?.items ?? EMPTY
  const items = useMemo(() => all.filter(isShown), [all])
  const lastUser = lastIndex(items, 'user')
  const lastError = lastIndex(items, 'error')
  const status = view?.status ?? 'idle'
  const render = useCallback(
    (item: ChatItem, index: number) => (
      <ChatItemView
        item={item}
        taskId={taskId}
        status={status}
        answered={index < lastUser || (item.kind === 'error' && index < lastError)}
      />
    ),
    [taskId, status, lastUser, lastError]
  )
  return (
    <section className="chat" aria-label="Chat">
      {view ? <TaskBar view={view} /> : <h1 className="sr-only">New task</h1>}
      <div className="chat-main">
        {!view && start ? (
          <div className="chat-scroller">{start}</div>
        ) : (
          <VirtualList
            className="chat-scroller"
            label="Conversation"
            items={items}
            getKey={keyOf}
            estimateHeight={estimateHeight}
            renderItem={render}
            followOutput
          />
        )}
        {view && view.todos.length > 0 && <TodoList todos={view.todos} />}
      </div>
      {/* Where the reply would appear: the request that failed and when it is sent again. */}
      {view?.retry && taskId && <RetryRow taskId={taskId} retry={view.retry} />}
      <Composer />
    </section>
  )
}

const EMPTY: ChatItem[] = []

// These calls show as their own items (the result with accept/answer, the question with suggestions);
// their tool card appears only when something went wrong with them.
const SHOWN_ELSEWHERE = new Set(['attempt_completion', 'ask_followup_question'])

const isShown = (item: ChatItem): boolean => {
  if (item.kind === 'tool')
    return !(SHOWN_ELSEWHERE.has(item.name) && !item.result?.isError && item.decision?.decision !== 'deny')
  // A turn that only called tools has no words: no empty bubble (a cut-off reply still says so).
  if (item.kind === 'assistant')
    return Boolean(
      item.text.trim() ||
      item.reasoning ||
      item.cutOff ||
      item.stopReason === 'cancelled' ||
      item.stopReason === 'max_tokens'
    )
  return true
}

function lastIndex(items: readonly ChatItem[], kind: ChatItem['kind']): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === kind) return i
  return -1
}
