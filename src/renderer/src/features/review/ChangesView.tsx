import { FormError } from '../../components/FormError'
import { countedOf } from '../../common/plural'
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import type { ChangeView } from '../../../../shared/contract/approvals'
import { useClient } from '../../client/client-context'
import { useChatStore } from '../../common/chat/chat-store'
import type { ChatItem } from '../../common/chat/task-view'
import { LazyChangesetReview } from '../../common/review/LazyChangesetReview'
import { conflictOf } from '../../common/review/review-model'
import { asWritten, provenanceOf, timeOf, turnsOfCalls } from './change-provenance'
import { useReviewStore } from '../../common/review/review-store'
import { SinceTaskStart } from '../../common/checkpoints/SinceTaskStart'
import '../../common/review/review.css'

const EMPTY: ChangeView[] = []
const REVERTIBLE = new Set<ChangeView['status']>(['applied', 'partially-applied'])

/** The active task's file changes, reviewed or auto-applied, each with its diff and a revert. */
export function ChangesView(): ReactNode {
  const client = useClient()
  const taskId = useChatStore((state) => state.activeTaskId)
  const title = useChatStore((state) => (taskId ? state.tasks[taskId]?.title : undefined))
  const changes = useReviewStore((state) => (taskId ? (state.byTask[taskId] ?? EMPTY) : EMPTY))
  const [error, setError] = useState<string | null>(null)
  const [open, setOpen] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [scope, setScope] = useState<'changes' | 'since-start'>('changes')
  const chatItems = useChatStore((state) => (taskId ? state.views[taskId]?.items : undefined))
  const turns = useMemo(() => turnsOfCalls(chatItems), [chatItems])

  // Reload when the task reports a change event (proposed, applied, rejected…): the list follows the agent.
  const changeSignature = useChatStore((state) => (taskId ? changeSignatureOf(state.views[taskId]?.items) : ''))
  useEffect(() => {
    if (!taskId) return
    void useReviewStore.getState().load(client, taskId).then(setError)
  }, [client, taskId, changeSignature])

  const revert = async (change: ChangeView): Promise<void> => {
    setBusy(change.id)
    setError(null)
    const problem = await useReviewStore.getState().revert(client, change)
    setBusy(null)
    setError(problem)
  }

  return (
    <section className="changes-view" aria-label="Changes">
      <h1>Changes{title ? ` — ${title}` : ''}</h1>
      {!taskId && <p className="note">Open a task in the chat to see its file changes.</p>}
      {taskId && (
        <div className="changes-scope" role="group" aria-label="Which changes">
          <button type="button" aria-pressed={scope === 'changes'} onClick={() => setScope('changes')}>
            Each change
          </button>
          <button type="button" aria-pressed={scope === 'since-start'} onClick={() => setScope('since-start')}>
            Since task start
          </button>
        </div>
      )}
      {taskId && scope === 'since-start' && <SinceTaskStart taskId={taskId} refreshKey={changeSignature} />}
      {scope === 'changes' && taskId && changes.length === 0 && !error && (
        <p className="note">This task has not changed any file.</p>
      )}
      <FormError message={error} />
      {scope === 'changes' &&
        changes.map((change) => {
          const from = provenanceOf(change, turns)
          return (
            <article key={change.id} className="change-row" aria-label={`Change to ${change.path}`}>
              <div className="change-row-head">
                <span className={`op op-${change.operation}`}>{change.operation}</span>
                <span className="path">{change.path}</span>
                <span className={`status-chip status-${change.status}`}>
                  {change.status}
                  {change.auto ? ' · auto' : ''}
                </span>
                <button
                  type="button"
                  aria-expanded={open === change.id}
                  onClick={() => setOpen(open === change.id ? null : change.id)}
                >
                  {open === change.id ? 'Hide diff' : 'Show diff'}
                </button>
                {REVERTIBLE.has(change.status) && change.byCommand === undefined && (
                  <button
                    type="button"
                    className="danger"
                    disabled={busy === change.id}
                    onClick={() => void revert(change)}
                  >
                    Revert…
                  </button>
                )}
              </div>
              <p className="change-row-meta">
                {from.putBack && <span className="putback-chip">{from.source}</span>}
                {from.turn && <span>{from.turn}</span>}
                <time dateTime={new Date(change.createdAt).toISOString()}>{timeOf(change.createdAt)}</time>
                {!from.putBack &&
                  (change.byCommand !== undefined ? (
                    <code>{from.source}</code>
                  ) : (
                    <span title={from.tool && `Tool: ${from.tool}`}>{from.source}</span>
                  ))}
                {change.written !== undefined && change.acceptedHunks !== undefined && (
                  <span>
                    {countedOf(change.acceptedHunks, change.hunks.length, 'hunk')} written
                    {change.editedByUser ? ', edited by you' : ''}
                  </span>
                )}
              </p>
              {conflictOf(change) && (
                <p className="conflict" role="alert">
                  Conflict: {conflictOf(change)}
                </p>
              )}
              {open === change.id && <LazyChangesetReview changes={[asWritten(change)]} />}
            </article>
          )
        })}
    </section>
  )
}

function changeSignatureOf(items: readonly ChatItem[] | undefined): string {
  if (!items) return ''
  let signature = ''
  for (const item of items) {
    if (item.kind === 'tool') for (const change of item.changes) signature += `${change.changeId}:${change.status};`
    // A restore or a revert writes outside any tool call: its row in the chat says the list changed.
    else if (item.kind === 'restored') signature += `${item.id};`
  }
  return signature
}
