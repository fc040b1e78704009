import { useState, type ReactNode } from 'react'
import type { ProviderKind } from '../../../../shared/contract/settings'
import { useClient } from '../../client/client-context'
import { useSettingsStore } from './settings-store'

const KIND_LABELS: Record<ProviderKind, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, OpenRouter, vLLM…)'
}
const DEFAULT_MODELS: Record<ProviderKind, string> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-5',
  'openai-compatible': ''
}

/** Adds or replaces a provider. The key goes to the core once and is never shown again. */
export function ProviderSettings({ onSaved }: { onSaved?: () => void }): ReactNode {
  const client = useClient()
  const settings = useSettingsStore((state) => state.settings)
  const [kind, setKind] = useState<ProviderKind>('anthropic')
  const [model, setModel] = useState(DEFAULT_MODELS.anthropic)
  const [baseUrl, setBaseUrl] = useState('')
  const [apiKey, setApiKey] = useState('')
  const [error, setError] = useState<string | null>(null)

  const save = async (): Promise<void> => {
    setError(null)
    const id = kind === 'openai-compatible' ? 'custom' : kind
    const saved = await client.request('settings:saveProvider', {
      id,
      kind,
      label: KIND_LABELS[kind].split(' (')[0],
      model: model.trim(),
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      ...(apiKey ? { apiKey } : {})
    })
    if (!saved.ok) return setError(saved.error.message)
    const active = await client.request('settings:setActiveProvider', { id })
    if (!active.ok) return setError(active.error.message)
    useSettingsStore.getState().setSettings(active.value)
    setApiKey('')
    onSaved?.()
  }

  return (
    <form
      className="provider-settings"
      aria-label="Provider settings"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      {settings?.providers.map((provider) => (
        <p key={provider.id} className="note">
          {provider.label} · {provider.model}
          {provider.hasKey ? ` · key …${provider.keyHint ?? ''}` : ' · no key'}
          {provider.id === settings.activeProviderId ? ' · active' : ''}
        </p>
      ))}
      <label htmlFor="provider-kind">Provider</label>
      <select
        id="provider-kind"
        value={kind}
        onChange={(event) => {
          const next = event.target.value as ProviderKind
          setKind(next)
          setModel(DEFAULT_MODELS[next])
        }}
      >
        {Object.entries(KIND_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <label htmlFor="provider-base-url">Base URL {kind !== 'openai-compatible' && '(optional)'}</label>
      <input
        id="provider-base-url"
        value={baseUrl}
        placeholder={kind === 'openai-compatible' ? 'http://localhost:11434/v1' : 'default'}
        onChange={(event) => setBaseUrl(event.target.value)}
      />
      <label htmlFor="provider-model">Model</label>
      <input id="provider-model" value={model} onChange={(event) => setModel(event.target.value)} />
      <label htmlFor="provider-key">API key</label>
      <input
        id="provider-key"
        type="password"
        autoComplete="off"
        value={apiKey}
        placeholder="stored securely, never shown again"
        onChange={(event) => setApiKey(event.target.value)}
      />
      <button type="submit" disabled={!model.trim()}>
        Save provider
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}
