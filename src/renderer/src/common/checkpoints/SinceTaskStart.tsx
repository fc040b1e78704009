import './checkpoints.css'
import { useEffect, useState, type ReactNode } from 'react'
import { FormError } from '../../components/FormError'
import { useClient } from '../../client/client-context'
import { LazyChangesetReview } from '../review/LazyChangesetReview'
import { useCheckpointsStore } from './checkpoints-store'

/** "Changes of this task": one diff per file from the task's start to now, edits and commands alike. */
export function SinceTaskStart({ taskId, refreshKey }: { taskId: string; refreshKey: string }): ReactNode {
  const client = useClient()
  const changes = useCheckpointsStore((state) => state.sinceStart[taskId] ?? null)
  const [error, setError] = useState<string | null>(null)
  const [open, setOpen] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    void useCheckpointsStore
      .getState()
      .loadSinceStart(client, taskId)
      .then((problem) => {
        if (current) setError(problem)
      })
    return () => {
      current = false
    }
  }, [client, taskId, refreshKey])

  if (error) return <FormError message={error} />
  if (!changes) return <p className="note">Loading…</p>
  if (changes.length === 0) return <p className="note">No file differs from when this task started.</p>
  return (
    <div className="since-start" aria-label="Changes since task start">
      {changes.map((change) => (
        <article key={change.id} className="change-row" aria-label={`Since start: ${change.path}`}>
          <div className="change-row-head">
            <span className={`op op-${change.operation}`}>{change.operation}</span>
            <span className="path">{change.path}</span>
            <button
              type="button"
              aria-expanded={open === change.id}
              onClick={() => setOpen(open === change.id ? null : change.id)}
            >
              {open === change.id ? 'Hide diff' : 'Show diff'}
            </button>
          </div>
          {open === change.id && <LazyChangesetReview changes={[change]} />}
        </article>
      ))}
    </div>
  )
}
