import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { ClaudeHooksSource, HookEntry } from '../../../../shared/contract/hooks'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { firstFocusable } from '../../components/focus-after'
import { HookTable } from './HookTable'

const SCOPE_WORDS: Record<ClaudeHooksSource['scope'], string> = {
  project: 'This project’s Claude Code settings',
  user: 'Your Claude Code user settings'
}

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`

/**
 * "Import from Claude Code": reads `.claude/settings.json` of the project and of the home folder and
 * shows what would be imported; only the user's confirmation writes it, into their global hooks
 * (their own grant: a project's file never applies by itself).
 */
export function ClaudeImportPanel(props: {
  onImport: (hooks: HookEntry[]) => Promise<string | null>
  onClose: () => void
}): ReactNode {
  const client = useClient()
  const [sources, setSources] = useState<ClaudeHooksSource[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => {
    void client.request('hooks:previewClaudeImport', {}).then((result) => {
      if (result.ok) setSources(result.value.sources)
      else setError(result.error.message)
    })
  }, [client])
  useEffect(() => {
    if (sources) firstFocusable(root.current)?.focus()
  }, [sources])
  const hooks = sources?.flatMap((source) => source.hooks) ?? []
  const confirm = async () => {
    setBusy(true)
    const problem = await props.onImport(hooks)
    setBusy(false)
    setError(problem)
  }
  return (
    <div className="claude-import card" ref={root} role="region" aria-label="Import from Claude Code">
      <h3 className="settings-subtitle">Import from Claude Code</h3>
      {!sources && !error && <p className="note">Reading Claude Code’s settings…</p>}
      {sources?.map((source) => (
        <div key={source.file} className="claude-source">
          <p>
            <strong>{SCOPE_WORDS[source.scope]}</strong> <span className="mono">{source.file}</span>
          </p>
          {!source.found && <p className="note">Not found.</p>}
          {source.error && <p className="form-error">This file cannot be imported: {source.error}</p>}
          {source.found && !source.error && source.hooks.length === 0 && <p className="note">No hooks to import.</p>}
          {source.hooks.length > 0 && <HookTable label={`Hooks in ${source.file}`} hooks={source.hooks} />}
          {source.skipped.length > 0 && (
            <ul className="note" aria-label={`Not imported from ${source.file}`}>
              {source.skipped.map((line) => (
                <li key={line}>Not imported: {line}</li>
              ))}
            </ul>
          )}
        </div>
      ))}
      {sources && (
        <p className="note">
          {hooks.length > 0
            ? `Importing adds ${count(hooks.length, 'hook')} to your own hooks, which run in every folder without a trust prompt. Hooks you already have are not added twice.`
            : 'Nothing to import.'}
        </p>
      )}
      <div className="form-actions">
        {hooks.length > 0 && (
          <button type="button" className="primary" disabled={busy} onClick={() => void confirm()}>
            Import {count(hooks.length, 'hook')}
          </button>
        )}
        <button type="button" onClick={props.onClose}>
          {hooks.length > 0 ? 'Cancel' : 'Close'}
        </button>
      </div>
      <FormError message={error} />
    </div>
  )
}
