import { useEffect, useState, type ReactNode } from 'react'
import type { OrphanWorktree, WorktreeSettings as Settings } from '../../../../shared/contract/worktrees'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { Field, SettingsForm, useSectionDraft } from '../../components/SettingsForm'
import { unwrap } from '../../client/unwrap'
import { formatBytes, linesToList } from './worktree-model'
import { focusOnMount } from '../../components/focus-after'

type WorktreeDraft = { copy: string; setup: string; max: string }

const toDraft = (settings: Settings): WorktreeDraft => ({
  copy: settings.copyFiles.join('\n'),
  setup: settings.setupCommand,
  max: String(settings.maxConcurrent)
})

/** A whole number of tasks from 1 to 32, or the problem to show. */
const maxProblem = (text: string): string | null => {
  const value = Number(text)
  return Number.isInteger(value) && value >= 1 && value <= 32 ? null : 'A whole number from 1 to 32.'
}

/**
 * Worktree settings in the Settings layout (components/SettingsForm): ignored files to copy (offered,
 * never copied unlisted), the setup command, how many run at once; then the space used and orphans.
 */
export function WorktreeSettings(): ReactNode {
  const client = useClient()
  const [settings, setSettings] = useState<Settings | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const section = useSectionDraft<WorktreeDraft>('settings:worktrees', 'Worktrees', settings ? toDraft(settings) : null)
  useEffect(() => {
    void client
      .request('worktrees:settings', {})
      .then((result) => (result.ok ? setSettings(result.value) : setLoadError(result.error.message)))
  }, [client])

  const draft = section.draft
  if (!settings || !draft) return <FormError message={loadError} />
  const listed = new Set(linesToList(draft.copy))
  const problem = maxProblem(draft.max)

  const save = async (): Promise<void> => {
    const result = await client.request('worktrees:saveSettings', {
      copyFiles: linesToList(draft.copy),
      setupCommand: draft.setup.trim(),
      maxConcurrent: Number(draft.max),
      pruneAfterDays: settings.pruneAfterDays,
      maxTotalMb: settings.maxTotalMb
    })
    if (result.ok) {
      setSettings(result.value)
      section.reset(toDraft(result.value))
    }
    section.done(result.ok ? null : result.error.message, 'Worktree settings saved.')
  }

  return (
    <>
      <p className="note">
        Worktrees live in {settings.dir} ({formatBytes(settings.spaceUsedBytes)} used).
      </p>
      <SettingsForm
        name="Worktree settings"
        className="worktree-settings"
        dirty={section.dirty}
        valid={problem === null}
        status={section.status}
        error={section.error}
        onSave={() => void save()}
      >
        {settings.repoRoot === null ? (
          <p className="note">Open a folder in a git repository to choose files to copy and a setup command.</p>
        ) : (
          <>
            <Field
              label="Ignored files to copy into each new worktree (one path a line)"
              hint="Nothing is copied unless listed here."
              touched={section.touched('copy')}
              onTouch={() => section.touch('copy')}
            >
              {(input) => (
                <textarea
                  {...input}
                  rows={3}
                  value={draft.copy}
                  onChange={(event) => section.set('copy', event.target.value)}
                />
              )}
            </Field>
            {settings.offeredFiles
              .filter((path) => !listed.has(path))
              .map((path) => (
                <button key={path} type="button" onClick={() => section.set('copy', [...listed, path].join('\n'))}>
                  Copy {path}
                </button>
              ))}
            <Field
              label="Setup command, run in each new worktree before its task (through the policy)"
              hint="For example npm ci; its output is in the task's terminal."
              touched={section.touched('setup')}
              onTouch={() => section.touch('setup')}
            >
              {(input) => (
                <input
                  {...input}
                  value={draft.setup}
                  placeholder="npm ci"
                  onChange={(event) => section.set('setup', event.target.value)}
                />
              )}
            </Field>
          </>
        )}
        <Field
          label="Tasks in worktrees that run at once (more wait in a queue)"
          error={problem}
          touched={section.touched('max')}
          onTouch={() => section.touch('max')}
        >
          {(input) => (
            <input
              {...input}
              type="number"
              min={1}
              max={32}
              value={draft.max}
              onChange={(event) => section.set('max', event.target.value)}
            />
          )}
        </Field>
      </SettingsForm>
      <Orphans />
    </>
  )
}

/** Worktree folders no task owns: listed with their size; removed only after a confirmation. */
function Orphans(): ReactNode {
  const client = useClient()
  const [orphans, setOrphans] = useState<OrphanWorktree[]>([])
  const [confirming, setConfirming] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = (): void =>
    void client.request('worktrees:orphans', {}).then((result) => result.ok && setOrphans(result.value))
  useEffect(load, [client])
  if (orphans.length === 0) return null

  const remove = async (path: string): Promise<void> => {
    setConfirming(null)
    try {
      unwrap(await client.request('worktrees:discardOrphan', { path }))
      load()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }
  return (
    <section aria-label="Orphaned worktrees">
      <h3>Orphaned worktrees</h3>
      <FormError message={error} />
      <ul>
        {orphans.map((orphan) => (
          <li key={orphan.path}>
            <code>{orphan.path}</code> {orphan.branch && <code>{orphan.branch}</code>} · {formatBytes(orphan.bytes)} ·{' '}
            {orphan.reason}{' '}
            {confirming === orphan.path ? (
              <span role="alertdialog" aria-label={`Remove ${orphan.path}?`}>
                Remove this folder and its branch?{' '}
                <button
                  type="button"
                  className="danger irreversible"
                  ref={focusOnMount}
                  onClick={() => void remove(orphan.path)}
                >
                  Remove
                </button>
                <button type="button" onClick={() => setConfirming(null)}>
                  Keep
                </button>
              </span>
            ) : (
              <button type="button" onClick={() => setConfirming(orphan.path)}>
                Remove…
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
