import './checkpoints.css'
import { useState, type ReactNode } from 'react'
import { FormError } from '../../components/FormError'
import { useClient } from '../../client/client-context'
import { useNavigationStore } from '../../navigation-store'
import { useCheckpointsStore } from './checkpoints-store'
import { describeRestore } from './restore-message'
import { checkpointSavedLine } from '../../../../shared/agent/command-rows'

interface CheckpointMarkerProps {
  taskId: string | null
  checkpointId: string
  label: string
  /** Saved by the user (`/checkpoint`): the files Modus changed since the checkpoint before. */
  changedSinceLast?: number
}

/**
 * The line between two turns: the files and the conversation can each be taken back to here, as
 * two separate choices. Restoring files opens the review (nothing is written before accepting).
 */
export function CheckpointMarker({ taskId, checkpointId, label, changedSinceLast }: CheckpointMarkerProps): ReactNode {
  const saved = changedSinceLast !== undefined
  const client = useClient()
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [confirmRewind, setConfirmRewind] = useState(false)

  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    setNote(null)
    try {
      await work()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }

  const restore = () =>
    run(async () => {
      if (!taskId) return
      const summary = await useCheckpointsStore.getState().restore(client, taskId, checkpointId)
      setNote(describeRestore(summary))
      if (summary.approvalId) useNavigationStore.getState().show('approvals')
    })

  const rewind = () =>
    run(async () => {
      if (!taskId) return
      await useCheckpointsStore.getState().rewind(client, taskId, checkpointId)
      setConfirmRewind(false)
    })

  return (
    <div
      className="checkpoint-marker"
      role="group"
      aria-label={saved ? `Checkpoint “${label}”` : `Checkpoint before “${label}”`}
    >
      <span className="checkpoint-line" aria-hidden="true" />
      <span className="checkpoint-label">{saved ? checkpointSavedLine(changedSinceLast) : 'Checkpoint'}</span>
      <button type="button" disabled={busy || !taskId} onClick={() => void restore()}>
        {saved ? 'Restore files to this checkpoint' : 'Restore files to before this turn'}
      </button>
      {confirmRewind ? (
        <span className="checkpoint-confirm">
          Later messages will no longer be sent or shown; files stay as they are.
          <button type="button" disabled={busy} onClick={() => void rewind()}>
            Rewind
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirmRewind(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button type="button" disabled={busy || !taskId} onClick={() => setConfirmRewind(true)}>
          Rewind the conversation to here
        </button>
      )}
      {note && (
        <p className="note" role="status">
          {note}
        </p>
      )}
      <FormError message={error} />
    </div>
  )
}
