import '../../common/checkpoints/checkpoints.css'
import { useEffect, useState, type ReactNode } from 'react'
import { FormError } from '../../components/FormError'
import { Field, SettingsForm, useSectionDraft } from '../../components/SettingsForm'
import { useClient } from '../../client/client-context'
import { useCheckpointsStore } from '../../common/checkpoints/checkpoints-store'

const formatBytes = (bytes: number): string =>
  bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(0)} KB`
    : bytes < 1024 ** 3
      ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
      : `${(bytes / 1024 ** 3).toFixed(2)} GB`

type LimitsDraft = { maxFileMb: string; workspaceCapMb: string }

const fileError = (text: string): string | null => {
  const value = Number(text)
  return text.trim() && value > 0 && value <= 1024 ? null : 'A number above 0, at most 1024.'
}
const capError = (text: string): string | null => (text.trim() && Number(text) > 0 ? null : 'A number above 0.')

/** Space the checkpoints use per workspace, and the two settings that bound it. */
export function CheckpointSettings(): ReactNode {
  const client = useClient()
  const usage = useCheckpointsStore((state) => state.usage)
  const [loadError, setLoadError] = useState<string | null>(null)
  const saved = usage
    ? { maxFileMb: String(usage.settings.maxFileMb), workspaceCapMb: String(usage.settings.workspaceCapMb) }
    : null
  const section = useSectionDraft<LimitsDraft>('settings:checkpoints', 'Checkpoints', saved)
  useEffect(() => {
    void useCheckpointsStore.getState().loadUsage(client).then(setLoadError)
  }, [client])
  const draft = section.draft
  const errors = draft
    ? { maxFileMb: fileError(draft.maxFileMb), workspaceCapMb: capError(draft.workspaceCapMb) }
    : null

  const save = async () => {
    if (!draft) return
    const settings = { maxFileMb: Number(draft.maxFileMb), workspaceCapMb: Number(draft.workspaceCapMb) }
    const problem = await useCheckpointsStore.getState().saveSettings(client, settings)
    const saved = useCheckpointsStore.getState().usage?.settings
    if (!problem && saved)
      section.reset({ maxFileMb: String(saved.maxFileMb), workspaceCapMb: String(saved.workspaceCapMb) })
    section.done(problem, 'Checkpoint settings saved.')
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
      {draft && errors && (
        <SettingsForm
          name="Checkpoint settings"
          className="checkpoint-limits"
          dirty={section.dirty}
          valid={!errors.maxFileMb && !errors.workspaceCapMb}
          status={section.status}
          error={section.error}
          onSave={() => void save()}
        >
          <Field
            label="Skip files larger than (MB) in command snapshots"
            error={errors.maxFileMb}
            touched={section.touched('maxFileMb')}
            onTouch={() => section.touch('maxFileMb')}
          >
            {(input) => (
              <input
                {...input}
                inputMode="decimal"
                value={draft.maxFileMb}
                onChange={(event) => section.set('maxFileMb', event.target.value)}
              />
            )}
          </Field>
          <Field
            label="Space per workspace (MB)"
            hint="The oldest tasks’ checkpoints go first."
            error={errors.workspaceCapMb}
            touched={section.touched('workspaceCapMb')}
            onTouch={() => section.touch('workspaceCapMb')}
          >
            {(input) => (
              <input
                {...input}
                inputMode="decimal"
                value={draft.workspaceCapMb}
                onChange={(event) => section.set('workspaceCapMb', event.target.value)}
              />
            )}
          </Field>
        </SettingsForm>
      )}
      <FormError message={loadError} />
    </div>
  )
}
