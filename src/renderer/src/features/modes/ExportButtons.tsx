import { useState, type ReactNode } from 'react'
import { FormError } from '../../components/FormError'
import { downloadText } from '../../common/download-text'
import type { ModesApi, ModesFormat } from './modes-api'

/** Download a mode as Modus YAML or as Roo's `.roomodes` (Modus-only keys dropped), or copy it. */
export function ExportButtons({
  api,
  slug,
  onError
}: {
  api: ModesApi
  slug: string
  onError(message: string): void
}): ReactNode {
  const [copied, setCopied] = useState(false)
  const download = async (format: ModesFormat) => {
    try {
      const file = await api.exportMode(slug, format)
      downloadText(file.fileName, file.content, 'application/yaml')
    } catch (error) {
      onError((error as Error).message)
    }
  }
  const copy = async () => {
    try {
      const file = await api.exportMode(slug, 'modus')
      await navigator.clipboard.writeText(file.content)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
    } catch (error) {
      onError(`Could not copy: ${(error as Error).message}`)
    }
  }
  return (
    <>
      <button type="button" onClick={() => void download('modus')}>
        Export YAML
      </button>
      <button type="button" onClick={() => void download('roo')}>
        Export .roomodes
      </button>
      <button type="button" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy YAML'}
      </button>
    </>
  )
}

/** Every mode the user made or changed, in one file: Modus YAML or Roo's `.roomodes`. */
export function ExportAllPanel({ api, onClose }: { api: ModesApi; onClose(): void }): ReactNode {
  const [error, setError] = useState<string | null>(null)
  const download = async (format: ModesFormat) => {
    setError(null)
    try {
      const file = await api.exportMode(undefined, format)
      downloadText(file.fileName, file.content, 'application/yaml')
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  return (
    <section className="export-panel card" aria-labelledby="export-all-title">
      <h2 id="export-all-title">Export all modes</h2>
      <p className="note">Your global and project modes, and the built-in modes you changed, in one file.</p>
      <div className="form-actions">
        <button type="button" onClick={() => void download('modus')}>
          Download Modus YAML
        </button>
        <button type="button" onClick={() => void download('roo')}>
          Download .roomodes (for Roo Code)
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <FormError message={error} />
    </section>
  )
}
