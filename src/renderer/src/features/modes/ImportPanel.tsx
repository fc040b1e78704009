import { FormError } from '../../components/FormError'
import { useId, useState, type ReactNode } from 'react'
import type { ModesApi, ModesFormat, ModeScope } from './modes-api'
import { useModesStore } from './modes-store'

/** Guess the format from the file name: Roo's files start with no auto-approve at all. */
export const formatForFile = (name: string): ModesFormat =>
  /(^|[\\/])\.roomodes$|custom_modes\.(ya?ml|json)$/i.test(name) ? 'roo' : 'modus'

/** Import modes from a file (`.roomodes`, `custom_modes.yaml`, `modes.yaml`) or pasted YAML/JSON. */
export function ImportPanel({ api, onClose }: { api: ModesApi; onClose(): void }): ReactNode {
  const hasProject = useModesStore((state) => state.listing?.hasProject ?? false)
  const [text, setText] = useState('')
  const [format, setFormat] = useState<ModesFormat>('roo')
  const [scope, setScope] = useState<ModeScope>(hasProject ? 'project' : 'global')
  const [result, setResult] = useState<{ imported: string[]; warnings: string[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const ids = useId()

  const readFile = async (file: File) => {
    setError(null)
    setResult(null)
    setFormat(formatForFile(file.name))
    setText(await file.text())
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
        placeholder={'customModes:\n  - slug: docs-writer\n    name: Docs Writer\n    roleDefinition: …\n    groups: [read]'}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="two-columns">
        <div className="field">
          <label htmlFor={`${ids}-format`}>Format</label>
          <select id={`${ids}-format`} value={format} onChange={(event) => setFormat(event.target.value as ModesFormat)}>
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
            Imported {result.imported.length} mode{result.imported.length === 1 ? '' : 's'}: {result.imported.join(', ')}
          </p>
          {result.warnings.map((warning) => (
            <p key={warning} className="note">
              {warning}
            </p>
          ))}
        </div>
      )}
      <FormError message={error} />
    </form>
  )
}
