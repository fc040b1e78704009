import { useState, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { unwrap } from '../../client/unwrap'
import { useActiveTaskView, useChatStore } from './chat-store'
import type { ChatItem } from './task-view'

/** The conversation of the active task and the composer that starts or continues it. */
export function ChatView(): ReactNode {
  const view = useActiveTaskView()
  return (
    <section className="chat" aria-label="Chat">
      <ol className="chat-items" aria-live="polite">
        {view?.items.map((item) => (
          <li key={item.id} className={`chat-item chat-item-${item.kind}`}>
            <ChatItemView item={item} />
          </li>
        ))}
      </ol>
      <Composer />
    </section>
  )
}

function ChatItemView({ item }: { item: ChatItem }): ReactNode {
  switch (item.kind) {
    case 'user':
      return <div className="bubble user">{item.text}</div>
    case 'assistant':
      return (
        <div className="bubble assistant" data-streaming={item.streaming}>
          {item.reasoning && (
            <details className="reasoning">
              <summary>Reasoning</summary>
              <pre>{item.reasoning}</pre>
            </details>
          )}
          <div className="assistant-text">{item.text}</div>
          {item.stopReason === 'cancelled' && <div className="note">Cancelled</div>}
        </div>
      )
    case 'tool':
      return (
        <div className="tool-card">
          <strong>{item.name}</strong> {item.decision && <span className="note">{item.decision.decision}</span>}
          {item.result && <pre className={item.result.isError ? 'tool-error' : ''}>{item.result.text}</pre>}
        </div>
      )
    case 'error':
      return <div className="bubble error" role="alert">{item.message}</div>
    case 'completion':
      return <div className="bubble completion">{item.result}</div>
    case 'followup':
      return <div className="bubble assistant">{item.question}</div>
    case 'mode':
      return <div className="note">Mode: {item.mode}</div>
  }
}

function Composer(): ReactNode {
  const client = useClient()
  const activeTaskId = useChatStore((state) => state.activeTaskId)
  const status = useChatStore((state) => (activeTaskId ? state.tasks[activeTaskId]?.status : undefined))
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const running = status === 'running'

  const send = async (): Promise<void> => {
    const message = text.trim()
    if (!message) return
    setError(null)
    try {
      const task = activeTaskId
        ? unwrap(await client.request('task:send', { taskId: activeTaskId, text: message }))
        : unwrap(await client.request('task:start', { text: message }))
      useChatStore.getState().upsertTask(task)
      useChatStore.getState().setActiveTask(task.id)
      setText('')
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }

  const cancel = async (): Promise<void> => {
    if (!activeTaskId) return
    const result = await client.request('task:cancel', { taskId: activeTaskId })
    if (!result.ok) setError(result.error.message)
  }

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
    >
      <textarea
        aria-label="Message"
        placeholder="Describe a task…  (Enter to send, Shift+Enter for a new line)"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault()
            void send()
          }
        }}
      />
      <div className="composer-actions">
        {running ? (
          <button type="button" onClick={() => void cancel()}>
            Cancel
          </button>
        ) : (
          <button type="submit" disabled={!text.trim()}>
            Send
          </button>
        )}
        {activeTaskId && !running && (
          <button type="button" onClick={() => useChatStore.getState().setActiveTask(null)}>
            New task
          </button>
        )}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}
