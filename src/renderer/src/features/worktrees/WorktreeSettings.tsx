import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react'
import type { OrphanWorktree, WorktreeSettings as Settings } from '../../../../shared/contract/worktrees'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { unwrap } from '../../client/unwrap'
import { formatBytes, linesToList } from './worktree-model'

/** Worktree settings: ignored files to copy (offered, never copied unlisted), setup command, limits, space, orphans. */
export function WorktreeSettings(): ReactNode {
  const client = useClient()
  const id = useId()
  const [settings, setSettings] = useState<Settings | null>(null)
  const [copy, setCopy] = useState('')
  const [setup, setSetup] = useState('')
  const [max, setMax] = useState(3)
  const [status, setStatus] = useState('')
  const [error, setError] = useState<string | null>(null)

  const show = (loaded: Settings): void => {
    setSettings(loaded)
    setCopy(loaded.copyFiles.join('\n'))
    setSetup(loaded.setupCommand)
    setMax(loaded.maxConcurrent)
  }
  useEffect(() => {
    void client
      .request('worktrees:settings', {})
      .then((result) => (result.ok ? show(result.value) : setError(result.error.message)))
  }, [client])

  if (!settings) return <FormError message={error} />
  const listed = new Set(linesToList(copy))
  const offer = (path: string): void => setCopy([...listed, path].join('\n'))

  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    setError(null)
    try {
      const saved = unwrap(
        await client.request('worktrees:saveSettings', {
          copyFiles: linesToList(copy),
          setupCommand: setup.trim(),
          maxConcurrent: max,
          pruneAfterDays: settings.pruneAfterDays,
          maxTotalMb: settings.maxTotalMb
        })
      )
      show(saved)
      setStatus('Saved.')
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }

  return (
    <form className="worktree-settings" aria-label="Worktree settings" onSubmit={(event) => void save(event)}>
      <p className="note">
        Worktrees live in {settings.dir} ({formatBytes(settings.spaceUsedBytes)} used).
      </p>
      {settings.repoRoot === null ? (
        <p className="note">Open a folder in a git repository to choose files to copy and a setup command.</p>
      ) : (
        <>
          <label htmlFor={`${id}-copy`}>Ignored files to copy into each new worktree (one path a line)</label>
          <textarea id={`${id}-copy`} rows={3} value={copy} onChange={(event) => setCopy(event.target.value)} />
          {settings.offeredFiles
            .filter((path) => !listed.has(path))
            .map((path) => (
              <button key={path} type="button" onClick={() => offer(path)}>
                Copy {path}
              </button>
            ))}
          <label htmlFor={`${id}-setup`}>
            Setup command, run in each new worktree before its task (through the policy)
          </label>
          <input
            id={`${id}-setup`}
            value={setup}
            placeholder="npm ci"
            onChange={(event) => setSetup(event.target.value)}
          />
        </>
      )}
      <label htmlFor={`${id}-max`}>Tasks in worktrees that run at once (more wait in a queue)</label>
      <input
        id={`${id}-max`}
        type="number"
        min={1}
        max={32}
        value={max}
        onChange={(event) => setMax(Math.max(1, Math.min(32, Number(event.target.value) || 1)))}
      />
      <FormError message={error} />
      <div className="row">
        <button type="submit">Save worktree settings</button>
        <span role="status" className="note">
          {status}
        </span>
      </div>
      <Orphans />
    </form>
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
                  autoFocus
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
