import { FormError } from '../../components/FormError'
import { useId, useState, type ReactNode } from 'react'
import type { ProviderCheck, ProviderKind, ProviderView } from '../../../../shared/contract/settings'
import { needsBaseUrl, PROVIDERS } from '../../../../shared/providers/descriptors'
import { useClient } from '../../client/client-context'
import { ModelPicker } from './ModelPicker'
import {
  checkDraft,
  defaultModelFor,
  draftFor,
  KIND_CHOICES,
  providerIdFor,
  shortKindLabel,
  toProviderInput,
  type ProviderDraft
} from './provider-form-model'
import { useSettingsStore } from '../../common/settings/settings-store'
import { composerField, focusWhenReady } from '../../components/focus-after'

export interface ProviderSettingsProps {
  /** The provider being edited; absent: a new one is added. */
  provider?: ProviderView
  /** Make the saved provider the active one (always true for the first provider). */
  activate?: boolean
  /** `check` is what testing the provider found, null when the user saved without it. */
  onSaved?: (provider: ProviderView, check: ProviderCheck | null) => void
  onCancel?: () => void
}

/** Adds or edits a provider. The key goes to the core once and is never shown again. */
export function ProviderSettings({ provider, activate = true, onSaved, onCancel }: ProviderSettingsProps): ReactNode {
  const client = useClient()
  const settings = useSettingsStore((state) => state.settings)
  const [draft, setDraft] = useState<ProviderDraft>(() => draftFor(provider))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [checking, setChecking] = useState(false)
  const [check, setCheck] = useState<ProviderCheck | null>(null)
  const ids = useId()
  const fieldId = (name: string) => `${ids}-${name}`
  const problems = checkDraft(draft)
  const change = (patch: Partial<ProviderDraft>) => {
    setDraft((current) => ({ ...current, ...patch }))
    setCheck(null)
  }

  // Saving first tries the provider (its model list); a failed check saves only on "Save anyway".
  const save = async (checkFirst: boolean): Promise<void> => {
    if (Object.keys(problems).length > 0) return
    // The chat may replace the form before the save's last answer: the user may be at work there by then.
    const from = document.activeElement
    setError(null)
    setBusy(true)
    try {
      const taken = settings?.providers.map((p) => p.id) ?? []
      const id = provider?.id ?? providerIdFor(draft.label || shortKindLabel(draft.kind), taken)
      const input = toProviderInput(draft, id)
      let found = check
      if (checkFirst) {
        setCheck(null)
        setChecking(true)
        const tested = await useSettingsStore
          .getState()
          .testProvider(client, input)
          .finally(() => setChecking(false))
        if (!tested.ok) return setError(tested.error.message)
        found = tested.value
        setCheck(found)
        if (!found.ok) return
      }
      const problem = await useSettingsStore.getState().saveProvider(client, input, activate)
      if (problem) return setError(problem)
      setDraft((current) => ({ ...current, apiKey: '' }))
      const stored = useSettingsStore.getState().settings?.providers.find((p) => p.id === id)
      if (stored) onSaved?.(stored, found)
      // The first provider: the form gives way to the chat, where the next step is the message field.
      if (!onSaved) focusWhenReady(composerField, from)
    } finally {
      setBusy(false)
    }
  }
  const failedSetting = check && !check.ok ? check.setting : undefined
  const checkMessageId = fieldId('check')
  const invalidBy = (setting: 'apiKey' | 'model' | 'baseUrl') =>
    failedSetting === setting ? { 'aria-invalid': true, 'aria-errormessage': checkMessageId } : {}

  const showProblem = (field: keyof ProviderDraft) =>
    problems[field] ? (
      <p className="field-error" id={fieldId(`${field}-error`)}>
        {problems[field]}
      </p>
    ) : null

  return (
    <form
      className="provider-settings"
      aria-label={provider ? `Edit provider ${provider.label}` : 'Provider settings'}
      onSubmit={(event) => {
        event.preventDefault()
        void save(true)
      }}
    >
      <label htmlFor={fieldId('kind')}>Provider</label>
      <select
        id={fieldId('kind')}
        value={draft.kind}
        onChange={(event) => {
          const kind = event.target.value as ProviderKind
          change({ kind, model: provider?.kind === kind ? provider.model : defaultModelFor(kind) })
        }}
      >
        {KIND_CHOICES.map(({ kind: value, label }) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <label htmlFor={fieldId('label')}>Name (optional)</label>
      <input
        id={fieldId('label')}
        value={draft.label}
        placeholder={shortKindLabel(draft.kind)}
        onChange={(event) => change({ label: event.target.value })}
      />
      {PROVIDERS[draft.kind].presets.length > 0 && (
        <div className="presets" role="group" aria-label="Common servers">
          {PROVIDERS[draft.kind].presets.map((preset) => (
            <button
              key={preset.id}
              type="button"
              className="preset"
              onClick={() => change({ baseUrl: preset.baseUrl, label: draft.label || preset.label })}
            >
              {preset.label}
            </button>
          ))}
        </div>
      )}
      <label htmlFor={fieldId('base-url')}>Base URL {!needsBaseUrl(draft.kind) && '(optional)'}</label>
      <input
        id={fieldId('base-url')}
        value={draft.baseUrl}
        placeholder={PROVIDERS[draft.kind].baseUrlExample}
        aria-invalid={Boolean(problems.baseUrl)}
        aria-describedby={problems.baseUrl ? fieldId('baseUrl-error') : undefined}
        {...invalidBy('baseUrl')}
        onChange={(event) => change({ baseUrl: event.target.value })}
      />
      {showProblem('baseUrl')}
      <ModelPicker
        draft={draft}
        provider={provider}
        inputId={fieldId('model')}
        problem={problems.model}
        invalid={invalidBy('model')}
        onChange={(model) => change({ model })}
      />
      {draft.kind === 'openai-compatible' && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.acceptsImages}
            onChange={(event) => change({ acceptsImages: event.target.checked })}
          />{' '}
          Accepts images (screenshots, MCP images and pasted images are sent to it)
        </label>
      )}
      <label htmlFor={fieldId('key')}>API key</label>
      <input
        id={fieldId('key')}
        type="password"
        autoComplete="off"
        value={draft.apiKey}
        {...invalidBy('apiKey')}
        placeholder={
          provider?.hasKey
            ? `stored (…${provider.keyHint ?? ''}); leave blank to keep it`
            : 'stored securely, never shown again'
        }
        onChange={(event) => change({ apiKey: event.target.value })}
      />
      <div className="form-actions">
        <button type="submit" disabled={busy || Object.keys(problems).length > 0}>
          Save provider
        </button>
        {check && !check.ok && (
          <button type="button" disabled={busy} onClick={() => void save(false)}>
            Save anyway
          </button>
        )}
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      <p className="provider-check" role="status">
        {checking && 'Testing the connection…'}
        {check?.ok && <span className="check-ok">{check.message}</span>}
      </p>
      {check && !check.ok && (
        <p className="form-error" role="alert" id={checkMessageId}>
          {check.message} Nothing was saved: fix it and save again, or save anyway.
        </p>
      )}
      <FormError message={error} />
    </form>
  )
}
