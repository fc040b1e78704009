import { FormError } from '../../components/FormError'
import { useId, useMemo, useState, type ReactNode } from 'react'
import { detectModesFormat } from '../../../../shared/modes/yaml'
import type { ModesApi, ModesFormat, ModeScope } from './modes-api'
import { useModesStore } from './modes-store'

const FORMAT_NAMES: Record<ModesFormat, string> = { roo: 'a Roo Code file', modus: 'a Modus file' }

/** Import modes from a file (`.roomodes`, `custom_modes.yaml`, `modes.yaml`) or pasted YAML/JSON. */
export function ImportPanel({ api, onClose }: { api: ModesApi; onClose(): void }): ReactNode {
  const hasProject = useModesStore((state) => state.listing?.hasProject ?? false)
  const [text, setText] = useState('')
  // The content says which format it is (Roo files start with no auto-approve); the user may override.
  const [chosenFormat, setChosenFormat] = useState<ModesFormat | null>(null)
  const detected = useMemo(() => detectModesFormat(text), [text])
  const format = chosenFormat ?? detected?.format ?? 'roo'
  const changeText = (next: string) => {
    setText(next)
    setChosenFormat(null)
  }
  const [scope, setScope] = useState<ModeScope>(hasProject ? 'project' : 'global')
  const [result, setResult] = useState<{ imported: string[]; warnings: string[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const ids = useId()

  const readFile = async (file: File) => {
    setError(null)
    setResult(null)
    changeText(await file.text())
  }

  const submit = async () => {
    setError(null)
    try {
      const outcome = await api.importText(text, format, scope)
      useModesStore.getState().setListing(outcome.listing, { reload: true })
      setResult({ imported: outcome.imported, warnings: outcome.warnings })
    } catch (failure) {
      setError((failure as Error).message)
    }
  }

  return (
    <form
      className="import-panel card"
      aria-label="Import modes"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <h2>Import modes</h2>
      <label htmlFor={`${ids}-file`}>Modes file (.roomodes, custom_modes.yaml, modes.yaml)</label>
      <input
        id={`${ids}-file`}
        type="file"
        accept=".yaml,.yml,.json,.roomodes,text/yaml,application/json"
        onChange={(event) => {
          const file = event.target.files?.[0]
          if (file) void readFile(file)
        }}
      />
      <label htmlFor={`${ids}-text`}>Or paste YAML or JSON</label>
      <textarea
        id={`${ids}-text`}
        className="mono"
        rows={8}
        value={text}
        spellCheck={false}
        placeholder={
          'customModes:\n  - slug: docs-writer\n    name: Docs Writer\n    roleDefinition: …\n    groups: [read]'
        }
        onChange={(event) => changeText(event.target.value)}
      />
      <div className="two-columns">
        <div className="field">
          <label htmlFor={`${ids}-format`}>Format</label>
          <select
            id={`${ids}-format`}
            value={format}
            aria-describedby={detected ? `${ids}-detected` : undefined}
            onChange={(event) => setChosenFormat(event.target.value as ModesFormat)}
          >
            <option value="roo">Roo Code (.roomodes): no auto-approve</option>
            <option value="modus">Modus (keeps auto-approve and command rules)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-scope`}>Import into</label>
          <select id={`${ids}-scope`} value={scope} onChange={(event) => setScope(event.target.value as ModeScope)}>
            <option value="global">Global (all projects)</option>
            <option value="project" disabled={!hasProject}>
              This project
            </option>
          </select>
        </div>
      </div>
      {detected && (
        <p className="note" id={`${ids}-detected`}>
          Read as {FORMAT_NAMES[detected.format]}: {detected.reason}.
          {chosenFormat &&
            chosenFormat !== detected.format &&
            ` You chose to import it as ${FORMAT_NAMES[chosenFormat]}.`}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={!text.trim()}>
          Import
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {result && (
        <div role="status" className="import-result">
          <p>
            Imported {result.imported.length} mode{result.imported.length === 1 ? '' : 's'}:{' '}
            {result.imported.join(', ')}
          </p>
          {result.warnings.length > 0 && (
            <ul className="import-warnings" aria-label="Import warnings">
              {result.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <FormError message={error} />
    </form>
  )
}
