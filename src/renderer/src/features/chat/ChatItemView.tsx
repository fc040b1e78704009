import { FormError } from '../../components/FormError'
import { counted } from '../../common/plural'
import { memo, useState, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { useChatStore } from '../../common/chat/chat-store'
import { Markdown } from './markdown/Markdown'
import type { ChatItem, TaskStatus } from '../../common/chat/task-view'
import { ToolCard, ApprovalNotice } from './ToolCard'
import { CheckpointMarker } from '../../common/checkpoints/CheckpointMarker'
import { RestoredRow } from '../../common/checkpoints/RestoredRow'
import { useNavigationStore } from '../../navigation-store'
import { focusWhenReady } from '../../components/focus-after'
import { UserImages } from './attachments/UserImages'
import { MentionText } from './mentions/MentionText'
import { CostRow } from './slash-commands/CostRow'
import { condensedLine } from '../../../../shared/agent/command-rows'

interface ItemProps {
  item: ChatItem
  taskId: string | null
  status: TaskStatus
  /** The user has written since this item (a follow-up or completion was answered); for an error, a later error came. */
  answered: boolean
}

export const ChatItemView = memo(function ChatItemView({ item, taskId, status, answered }: ItemProps): ReactNode {
  switch (item.kind) {
    case 'user':
      return (
        <div className="chat-row chat-row-user">
          <div className="bubble user">
            <MentionText text={item.text} />
            {item.images && <UserImages images={item.images} />}
          </div>
        </div>
      )
    case 'assistant':
      return (
        <div className="chat-row">
          <div className="bubble assistant" data-streaming={item.streaming}>
            {item.reasoning && (
              <details className="reasoning">
                <summary>{item.streaming && !item.text ? 'Thinking…' : 'Reasoning'}</summary>
                <pre>{item.reasoning}</pre>
              </details>
            )}
            <div className="assistant-text">
              <Markdown text={item.text} />
            </div>
            {item.stopReason === 'cancelled' && <div className="note">Cancelled</div>}
            {item.stopReason === 'max_tokens' && <div className="note">The reply hit the output token limit.</div>}
            {item.cutOff && <div className="note cut-off">Cut off: the answer stopped mid-stream.</div>}
          </div>
        </div>
      )
    case 'checkpoint':
      return (
        <CheckpointMarker
          taskId={taskId}
          checkpointId={item.checkpointId}
          label={item.label}
          changedSinceLast={item.changedSinceLast}
        />
      )
    case 'restored':
      return <RestoredRow how={item.how} label={item.label} files={item.files} />
    case 'tool':
      return <ToolCard item={item} status={status} />
    case 'approval':
      return <ApprovalNotice approval={item.approval} />
    case 'error':
      return <ErrorCard item={item} taskId={taskId} status={status} superseded={answered} />
    case 'completion':
      return <Completion id={item.id} result={item.result} answered={answered} />
    case 'followup':
      return <Followup item={item} taskId={taskId} answered={answered} />
    case 'mode':
      return (
        <div className="chat-row note">
          Switched to {item.mode} mode{item.reason ? `: ${item.reason}` : ''}
        </div>
      )
    case 'condensed':
      return (
        <div className="chat-row">
          <details className="condensed">
            <summary>
              {item.tokensAfter === undefined ? (
                <>
                  Context condensed: {counted(item.hiddenMessages, 'earlier message')} summarised (
                  {counted(item.tokensBefore, 'token')} before)
                </>
              ) : (
                `${item.requested ? '' : 'Context full: '}${condensedLine(item)}`
              )}
            </summary>
            <Markdown text={item.summary} />
          </details>
        </div>
      )
    case 'truncated':
      return (
        <div className="chat-row note">
          {item.hiddenMessages} earlier messages no longer sent to the model (context full)
        </div>
      )
    case 'cost':
      return <CostRow models={item.models} />
    case 'subtask':
      return (
        <div className="chat-row">
          <div className="subtask-card">
            Subtask in {item.mode} mode — {item.status}
            {item.message && <p className="note">{item.message}</p>}
            {item.result && (
              <details>
                <summary>Result</summary>
                <Markdown text={item.result} />
              </details>
            )}
          </div>
        </div>
      )
  }
})

function Completion({ id, result, answered }: { id: string; result: string; answered: boolean }): ReactNode {
  const accepted = useChatStore((state) => Boolean(state.accepted[id]))
  return (
    <div className="chat-row">
      <div className="bubble completion" role="group" aria-label="Task result">
        <div className="completion-label">Task completed</div>
        <Markdown text={result} />
        {accepted ? (
          <p className="note">Accepted.</p>
        ) : (
          !answered && (
            <div className="row">
              <button type="button" className="primary" onClick={() => useChatStore.getState().acceptCompletion(id)}>
                Accept result
              </button>
              <button
                type="button"
                onClick={() => document.querySelector<HTMLTextAreaElement>('.composer textarea')?.focus()}
              >
                Answer…
              </button>
            </div>
          )
        )}
      </div>
    </div>
  )
}

function Followup(props: {
  item: Extract<ChatItem, { kind: 'followup' }>
  taskId: string | null
  answered: boolean
}): ReactNode {
  const client = useClient()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const answer = async (text: string, mode?: string): Promise<void> => {
    if (!props.taskId) return
    setBusy(true)
    setError(null)
    try {
      await useChatStore.getState().send(client, props.taskId, text, mode)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="chat-row">
      <div className="bubble assistant followup">
        <Markdown text={props.item.question} />
        {!props.answered && props.item.suggestions.length > 0 && (
          <div className="suggestions" role="group" aria-label="Suggested answers">
            {props.item.suggestions.map((suggestion, n) => (
              <button
                key={n}
                type="button"
                disabled={busy}
                onClick={() => void answer(suggestion.answer, suggestion.mode)}
              >
                {suggestion.answer}
                {suggestion.mode && <span className="note"> (switches to {suggestion.mode})</span>}
              </button>
            ))}
          </div>
        )}
        <FormError message={error} />
      </div>
    </div>
  )
}

/** Failures a provider setting can fix (key, base URL, model); retrying alone may not help. */
const SETTINGS_FAILURES = new Set([
  'auth',
  'network',
  'bad_request',
  'model_no_tools',
  'rate_limit',
  'overloaded',
  'server'
])

/** An error; the one that failed the task offers to retry it and, for provider failures, the settings. */
function ErrorCard(props: {
  item: Extract<ChatItem, { kind: 'error' }>
  taskId: string | null
  status: TaskStatus
  /** A later message or error came after it. */
  superseded: boolean
}): ReactNode {
  const client = useClient()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { item, taskId } = props
  const failedTask =
    Boolean(item.failure) && !props.superseded && (props.status === 'failed' || props.status === 'interrupted')
  const retry = async (): Promise<void> => {
    if (!taskId) return
    setBusy(true)
    setError(null)
    try {
      await useChatStore.getState().resume(client, taskId)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="chat-row">
      <div className="bubble error" role="alert">
        {item.message}
        {failedTask && (
          <div className="row error-actions">
            <button type="button" disabled={busy} onClick={() => void retry()}>
              Retry
            </button>
            {SETTINGS_FAILURES.has(item.failure!) && (
              <button type="button" onClick={openProviderSettings}>
                Open settings
              </button>
            )}
          </div>
        )}
        <FormError message={error} />
      </div>
    </div>
  )
}

/** Settings for a provider failure: the keyboard lands on the active provider's Edit button, the likely fix. */
function openProviderSettings(): void {
  useNavigationStore.getState().show('settings')
  focusWhenReady(() => document.querySelector<HTMLElement>('.provider-row[data-active] [data-action="edit"]'))
}
