import '../../common/checkpoints/checkpoints.css'
import { useEffect, useId, useState, type ReactNode } from 'react'
import type { CheckpointUsage } from '../../../../shared/contract/checkpoints'
import { FormError } from '../../components/FormError'
import { useClient } from '../../client/client-context'
import { useCheckpointsStore } from '../../common/checkpoints/checkpoints-store'

const formatBytes = (bytes: number): string =>
  bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(0)} KB`
    : bytes < 1024 ** 3
      ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
      : `${(bytes / 1024 ** 3).toFixed(2)} GB`

/** Space the checkpoints use per workspace, and the two settings that bound it. */
export function CheckpointSettings(): ReactNode {
  const client = useClient()
  const id = useId()
  const usage = useCheckpointsStore((state) => state.usage)
  const [draft, setDraft] = useState({ maxFileMb: '', workspaceCapMb: '' })
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)

  /** The form starts from the settings just read or saved. */
  const showSaved = (problem: string | null): boolean => {
    if (problem) {
      setError(problem)
      return false
    }
    const value = useCheckpointsStore.getState().usage as CheckpointUsage
    setDraft({ maxFileMb: String(value.settings.maxFileMb), workspaceCapMb: String(value.settings.workspaceCapMb) })
    return true
  }
  useEffect(() => {
    void useCheckpointsStore.getState().loadUsage(client).then(showSaved)
  }, [client])

  const save = async () => {
    setSaved(false)
    const maxFileMb = Number(draft.maxFileMb)
    const workspaceCapMb = Number(draft.workspaceCapMb)
    if (!(maxFileMb > 0 && maxFileMb <= 1024) || !(workspaceCapMb > 0)) {
      setError('Both values must be numbers above 0 (the file size at most 1024 MB).')
      return
    }
    if (!showSaved(await useCheckpointsStore.getState().saveSettings(client, { maxFileMb, workspaceCapMb }))) return
    setError(null)
    setSaved(true)
  }

  return (
    <div className="checkpoint-settings">
      <p className="note">
        Every change Modus applies keeps the file’s previous content, and commands that may write are snapshotted before
        and after, in the app data dir — never in your repository’s .git.
      </p>
      {usage && !usage.gitAvailable && (
        <p className="form-error" role="alert">
          git was not found: changes made by commands are not captured (edits still are).
        </p>
      )}
      {usage && (
        <table className="checkpoint-usage" aria-label="Space used by checkpoints">
          <tbody>
            {usage.workspaces.length === 0 && (
              <tr>
                <td>No checkpoints yet.</td>
              </tr>
            )}
            {usage.workspaces.map((entry) => (
              <tr key={entry.workspace}>
                <td className="path">{entry.workspace}</td>
                <td>{formatBytes(entry.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="checkpoint-limits"
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <label htmlFor={`${id}-file`}>Skip files larger than (MB) in command snapshots</label>
        <input
          id={`${id}-file`}
          inputMode="decimal"
          value={draft.maxFileMb}
          onChange={(e) => setDraft({ ...draft, maxFileMb: e.target.value })}
        />
        <label htmlFor={`${id}-cap`}>Space per workspace (MB); the oldest tasks’ checkpoints go first</label>
        <input
          id={`${id}-cap`}
          inputMode="decimal"
          value={draft.workspaceCapMb}
          onChange={(e) => setDraft({ ...draft, workspaceCapMb: e.target.value })}
        />
        <button type="submit">Save checkpoint settings</button>
        {saved && <span role="status">Saved</span>}
      </form>
      <FormError message={error} />
    </div>
  )
}
