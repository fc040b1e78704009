import { useState, type ReactNode } from 'react'
import { downloadText } from '../history/history-model'
import type { ModesApi, ModesFormat } from './modes-api'

/** Download a mode as Modus YAML or as Roo's `.roomodes` (Modus-only keys dropped), or copy it. */
export function ExportButtons({ api, slug, onError }: { api: ModesApi; slug: string; onError(message: string): void }): ReactNode {
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
