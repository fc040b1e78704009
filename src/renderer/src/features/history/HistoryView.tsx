import { FormError } from '../../components/FormError'
import { countedOf } from '../../common/plural'
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react'
import type { TaskSummary } from '../../../../shared/contract/task'
import { useClient } from '../../client/client-context'
import { useHistoryStore } from './history-store'
import { downloadText } from '../../common/download-text'
import { formatCost, formatWhen, RESUMABLE, searchTasks, STATUS_WORDS } from './history-model'
import { useNavigationStore } from '../../navigation-store'
import './history.css'
import { focusOnMount } from '../../components/focus-after'

/** Every saved task: search, open or resume in the chat, export, delete with confirmation. */
export function HistoryView(): ReactNode {
  const client = useClient()
  const tasks = useHistoryStore((state) => state.tasks)
  const loaded = useHistoryStore((state) => state.loaded)
  const query = useHistoryStore((state) => state.query)
  const [error, setError] = useState<string | null>(null)
  const searchId = useId()

  // Loaded on open; task:updated events keep it current (event-router).
  useEffect(() => {
    let live = true
    void useHistoryStore
      .getState()
      .load(client)
      .then((problem) => live && problem && setError(problem))
    return () => {
      live = false
    }
  }, [client])

  const shown = useMemo(() => searchTasks(Object.values(tasks), query), [tasks, query])
  const total = Object.keys(tasks).length

  return (
    <section className="history-view" aria-label="History">
      <h1>History</h1>
      <label htmlFor={searchId}>Search tasks</label>
      <input
        id={searchId}
        type="search"
        value={query}
        placeholder="words from the title, a mode, a status"
        onChange={(event) => useHistoryStore.getState().setQuery(event.target.value)}
      />
      <p className="note" role="status">
        {!loaded ? 'Loading…' : total === 0 ? 'No tasks yet.' : countedOf(shown.length, total, 'task')}
      </p>
      <FormError message={error} />
      <ul className="history-list" aria-label="Tasks">
        {shown.map((task) => (
          <HistoryRow key={task.id} task={task} onError={setError} />
        ))}
      </ul>
    </section>
  )
}

function HistoryRow({ task, onError }: { task: TaskSummary; onError: (message: string | null) => void }): ReactNode {
  const client = useClient()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)

  const act = async (work: () => Promise<void>) => {
    onError(null)
    setBusy(true)
    try {
      await work()
    } catch (error) {
      onError((error as Error).message)
    } finally {
      setBusy(false)
    }
  }

  const openInChat = async (resume: boolean) => {
    await useHistoryStore.getState().openInChat(client, task, resume)
    useNavigationStore.getState().show('chat')
  }

  const exportAs = async (format: 'markdown' | 'json') => {
    const file = await useHistoryStore.getState().exportTask(client, task.id, format)
    downloadText(file.fileName, file.content, format === 'json' ? 'application/json' : 'text/markdown')
  }

  const remove = async () => {
    setConfirming(false)
    await useHistoryStore.getState().deleteTask(client, task.id)
  }

  return (
    <li className="history-row" aria-label={task.title}>
      <div className="history-title">
        <strong>{task.title}</strong>
        <span className={`status status-${task.status}`}>{STATUS_WORDS[task.status]}</span>
      </div>
      <div className="note">
        {task.mode} · <time dateTime={new Date(task.updatedAt).toISOString()}>{formatWhen(task.updatedAt)}</time>
        {task.parentId ? ' · subtask' : ''}
        {formatCost(task.costUsd) && ` · ${formatCost(task.costUsd)}`}
      </div>
      {confirming ? (
        <div className="row" role="alertdialog" aria-label={`Delete task ${task.title}?`}>
          <span>Delete this task and its history? This cannot be undone.</span>
          <button type="button" className="danger irreversible" ref={focusOnMount} onClick={() => void act(remove)}>
            Delete
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </div>
      ) : (
        <div className="row history-actions">
          {RESUMABLE.has(task.status) ? (
            <button type="button" disabled={busy} onClick={() => void act(() => openInChat(true))}>
              Resume
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => void act(() => openInChat(false))}>
              Open
            </button>
          )}
          <button type="button" disabled={busy} onClick={() => void act(() => exportAs('markdown'))}>
            Export Markdown
          </button>
          <button type="button" disabled={busy} onClick={() => void act(() => exportAs('json'))}>
            Export JSON
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      )}
    </li>
  )
}
