import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import type { EmbeddingsKind } from '../../../../shared/contract/settings'
import { PROVIDERS } from '../../../../shared/providers/descriptors'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { useSettingsStore } from '../settings/settings-store'
import { progressLine, useCodeIndexStore, type CodeIndexAction } from './code-index-store'

/** The embeddings endpoint of codebase_search; without one the search is lexical (BM25) only. */
export function EmbeddingsForm(): ReactNode {
  const client = useClient()
  const saved = useSettingsStore((state) => state.settings?.embeddings ?? null)
  const [kind, setKind] = useState<EmbeddingsKind>(saved?.kind ?? 'openai')
  const [baseUrl, setBaseUrl] = useState(saved?.baseUrl ?? '')
  const [model, setModel] = useState(saved?.model ?? 'text-embedding-3-small')
  const [apiKey, setApiKey] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)

  const save = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setNote(null)
    const embeddings = {
      kind,
      model,
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      ...(apiKey ? { apiKey } : {})
    }
    const problem = await useSettingsStore.getState().save(client, 'settings:saveEmbeddings', { embeddings })
    if (problem) return setError(problem)
    setApiKey('')
    setNote('Saved. The index embeds its chunks with this model in the background.')
  }
  const turnOff = async () => {
    setError(null)
    const problem = await useSettingsStore.getState().save(client, 'settings:saveEmbeddings', { embeddings: null })
    if (problem) return setError(problem)
    setNote('Semantic search is off; codebase_search is lexical.')
  }

  return (
    <form className="embeddings-form" onSubmit={(e) => void save(e)} aria-label="Embeddings">
      <label>
        Provider
        <select value={kind} onChange={(e) => setKind(e.target.value as EmbeddingsKind)}>
          <option value="openai">OpenAI</option>
          <option value="openai-compatible">OpenAI-compatible (Ollama, LM Studio, vLLM)</option>
        </select>
      </label>
      <label>
        Base URL{PROVIDERS[kind].defaultBaseUrl ? ' (optional)' : ''}
        <input
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          placeholder={PROVIDERS[kind].defaultBaseUrl ?? PROVIDERS[kind].baseUrlExample}
        />
      </label>
      <label>
        Model
        <input value={model} onChange={(e) => setModel(e.target.value)} required />
      </label>
      <label>
        API key {saved?.hasKey ? '(stored; leave empty to keep it)' : '(optional for local servers)'}
        <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="off" />
      </label>
      <div className="actions">
        <button type="submit">Save embeddings</button>
        {saved && (
          <button type="button" onClick={() => void turnOff()}>
            Turn semantic search off
          </button>
        )}
      </div>
      {note && (
        <p className="note" role="status">
          {note}
        </p>
      )}
      <FormError message={error} />
    </form>
  )
}

/** The open workspace's index: progress, errors, and rebuild / clear / cancel. */
export function CodeIndexStatusPanel(): ReactNode {
  const client = useClient()
  const status = useCodeIndexStore((state) => state.status)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    void useCodeIndexStore.getState().load(client)
  }, [client])

  const act = async (action: CodeIndexAction) => {
    setError(null)
    setError(await useCodeIndexStore.getState().run(client, action))
  }

  if (!status) return <p className="note">Reading the index status…</p>
  const busy = status.state === 'indexing' || status.state === 'loading' || status.semantic.state === 'embedding'
  return (
    <div className="code-index-status" aria-label="Workspace index">
      <p role="status">{status.message}</p>
      {status.workspace && status.state !== 'idle' && (
        <>
          <progress max={Math.max(status.filesTotal, 1)} value={status.filesDone} aria-label="Files indexed" />
          <p className="note">{progressLine(status)}</p>
        </>
      )}
      <p className="note">
        Semantic search: {status.semantic.state === 'off' ? 'off (lexical only)' : status.semantic.state}
        {status.semantic.model
          ? ` · ${status.semantic.model}${status.semantic.dimension ? ` (${status.semantic.dimension} dimensions)` : ''}`
          : ''}
        {status.semantic.message ? ` · ${status.semantic.message}` : ''}
      </p>
      {status.recentErrors.length > 0 && (
        <ul className="code-index-errors">
          {status.recentErrors.map((e) => (
            <li key={`${e.path}:${e.message}`}>
              {e.path}: {e.message}
            </li>
          ))}
        </ul>
      )}
      {status.workspace && (
        <div className="actions">
          <button type="button" onClick={() => void act('rebuild')}>
            Rebuild index
          </button>
          <button type="button" className="danger" onClick={() => void act('clear')}>
            Clear index
          </button>
          {busy && (
            <button type="button" onClick={() => void act('cancel')}>
              Cancel indexing
            </button>
          )}
        </div>
      )}
      <FormError message={error} />
    </div>
  )
}
