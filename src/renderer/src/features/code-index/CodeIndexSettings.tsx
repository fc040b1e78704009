import { useEffect, useState, type ReactNode } from 'react'
import type { EmbeddingsKind } from '../../../../shared/contract/settings'
import { PROVIDERS } from '../../../../shared/providers/descriptors'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { Field, SettingsForm, useSectionDraft } from '../../components/SettingsForm'
import { useSettingsStore } from '../../common/settings/settings-store'
import { progressLine, useCodeIndexStore, type CodeIndexAction } from './code-index-store'

type EmbeddingsDraft = { kind: string; baseUrl: string; model: string; apiKey: string }

/** The embeddings endpoint of codebase_search; without one the search is lexical (BM25) only. */
export function EmbeddingsForm(): ReactNode {
  const client = useClient()
  const saved = useSettingsStore((state) => state.settings?.embeddings ?? null)
  const loaded = useSettingsStore((state) => state.settings !== null)
  // The key is never shown: an empty field keeps the stored one, so typing one is the change.
  const stored: EmbeddingsDraft | null = loaded
    ? {
        kind: saved?.kind ?? 'openai',
        baseUrl: saved?.baseUrl ?? '',
        model: saved?.model ?? 'text-embedding-3-small',
        apiKey: ''
      }
    : null
  const section = useSectionDraft<EmbeddingsDraft>('settings:embeddings', 'Codebase index', stored)
  const draft = section.draft
  if (!draft) return null
  const kind = draft.kind as EmbeddingsKind
  const modelError = draft.model.trim() ? null : 'The embeddings model is required.'

  const save = async () => {
    const embeddings = {
      kind,
      model: draft.model.trim(),
      ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}),
      ...(draft.apiKey ? { apiKey: draft.apiKey } : {})
    }
    const problem = await useSettingsStore.getState().save(client, 'settings:saveEmbeddings', { embeddings })
    if (!problem) section.reset({ ...draft, apiKey: '' })
    section.done(problem, 'Saved. The index embeds its chunks with this model in the background.')
  }
  const turnOff = async () => {
    const problem = await useSettingsStore.getState().save(client, 'settings:saveEmbeddings', { embeddings: null })
    section.done(problem, 'Semantic search is off; codebase_search is lexical.')
  }
  const field = (key: keyof EmbeddingsDraft) => ({
    touched: section.touched(key),
    onTouch: () => section.touch(key)
  })

  return (
    <SettingsForm
      name="Embeddings"
      className="embeddings-form"
      dirty={section.dirty}
      valid={!modelError}
      status={section.status}
      error={section.error}
      onSave={() => void save()}
      extra={
        saved && (
          <button type="button" onClick={() => void turnOff()}>
            Turn semantic search off
          </button>
        )
      }
    >
      <Field label="Provider" {...field('kind')}>
        {(input) => (
          <select {...input} value={kind} onChange={(e) => section.set('kind', e.target.value)}>
            <option value="openai">OpenAI</option>
            <option value="openai-compatible">OpenAI-compatible (Ollama, LM Studio, vLLM)</option>
          </select>
        )}
      </Field>
      <Field label={`Base URL${PROVIDERS[kind].defaultBaseUrl ? ' (optional)' : ''}`} {...field('baseUrl')}>
        {(input) => (
          <input
            {...input}
            value={draft.baseUrl}
            onChange={(e) => section.set('baseUrl', e.target.value)}
            placeholder={PROVIDERS[kind].defaultBaseUrl ?? PROVIDERS[kind].baseUrlExample}
          />
        )}
      </Field>
      <Field label="Model" error={modelError} {...field('model')}>
        {(input) => <input {...input} value={draft.model} onChange={(e) => section.set('model', e.target.value)} />}
      </Field>
      <Field
        label="API key"
        hint={saved?.hasKey ? 'Stored; leave empty to keep it.' : 'Optional for local servers.'}
        {...field('apiKey')}
      >
        {(input) => (
          <input
            {...input}
            type="password"
            value={draft.apiKey}
            onChange={(e) => section.set('apiKey', e.target.value)}
            autoComplete="off"
          />
        )}
      </Field>
    </SettingsForm>
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
