import { useEffect, useState, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { composerField, focusWhenReady } from '../../components/focus-after'
import { FormError } from '../../components/FormError'
import { useChatStore } from '../../common/chat/chat-store'
import type { TaskView } from '../../common/chat/task-view'

type Retry = NonNullable<TaskView['retry']>

/** "Request failed (429)" — what failed, in the words of the row. */
export const failedRequestLabel = (retry: Retry): string => `Request failed${retry.status ? ` (${retry.status})` : ''}`

/**
 * A model request that failed and is retried after a wait: a row at the end of the chat with the
 * countdown, "Retry now" and "Stop". Screen readers hear it once when it appears; the seconds that
 * tick are hidden from them (a status line re-read every second says nothing new).
 */
export function RetryRow({ taskId, retry }: { taskId: string; retry: Retry }): ReactNode {
  const client = useClient()
  const [now, setNow] = useState(() => Date.now())
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [retry.until])
  const seconds = Math.max(0, Math.ceil((retry.until - now) / 1000))
  const announced = `${failedRequestLabel(retry)}, retrying in ${Math.max(0, Math.ceil((retry.until - Date.now()) / 1000))} s.`

  const retryNow = async (): Promise<void> => {
    setError(null)
    focusWhenReady(composerField)
    const result = await client.request('task:retryNow', { taskId })
    if (!result.ok) setError(result.error.message)
  }
  const stop = async (): Promise<void> => {
    setError(null)
    focusWhenReady(composerField)
    const problem = await useChatStore.getState().cancel(client, taskId)
    if (problem) setError(problem)
  }

  return (
    <div className="retry-row" role="group" aria-label="Retrying the request">
      {/* Keyed by attempt: a new attempt is a new announcement, the ticking is not. */}
      <p className="sr-only" role="status" key={retry.attempt}>
        <AnnounceOnce text={`${announced} Attempt ${retry.attempt}.`} />
      </p>
      <p className="retry" aria-hidden="true">
        {failedRequestLabel(retry)}, {seconds > 0 ? `retrying in ${seconds} s` : 'retrying now'} (attempt{' '}
        {retry.attempt})
      </p>
      <p className="note retry-reason">{retry.reason}</p>
      <div className="row">
        <button type="button" onClick={() => void retryNow()}>
          Retry now
        </button>
        <button type="button" onClick={() => void stop()}>
          Stop
        </button>
      </div>
      <FormError message={error} />
    </div>
  )
}

/**
 * The text as it was at the first render, put in after the (empty) live region is on the page, so
 * it is announced; later renders (the countdown) do not change it.
 */
function AnnounceOnce({ text }: { text: string }): ReactNode {
  const [first] = useState(text)
  const [shown, setShown] = useState('')
  useEffect(() => setShown(first), [first])
  return shown
}
