import { FormError } from '../../components/FormError'
import { useRef, useState, type ReactNode } from 'react'
import type { ProviderCheck, ProviderView } from '../../../../shared/contract/settings'
import { useClient } from '../../client/client-context'
import { describeModel } from './model-facts'
import { shortKindLabel } from './provider-form-model'
import { ProviderSettings } from './ProviderSettings'
import { useSettingsStore } from '../../common/settings/settings-store'
import { firstFocusable, focusOnMount, focusWhenReady } from '../../components/focus-after'

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; id: string }

/** Every configured provider with its model, base URL and key hint; add, edit, remove, make active. */
export function ProviderList(): ReactNode {
  const client = useClient()
  const settings = useSettingsStore((state) => state.settings)
  const [editing, setEditing] = useState<Editing>({ kind: 'none' })
  const [error, setError] = useState<string | null>(null)
  const [confirmRemove, setConfirmRemove] = useState<string | null>(null)
  // What the last save found out (the form closes on save): "Connected …", or saved despite a failed check.
  const [saved, setSaved] = useState<string | null>(null)
  const list = useRef<HTMLDivElement>(null)
  // Focus follows the form: into its first field when it opens, back to the button that opened it when it closes.
  const openForm = (next: Exclude<Editing, { kind: 'none' }>): void => {
    setEditing(next)
    const where = next.kind === 'edit' ? `[data-provider="${CSS.escape(next.id)}"]` : '[data-form="new-provider"]'
    focusWhenReady(() => firstFocusable(list.current?.querySelector(where)))
  }
  const closeForm = (): void => {
    const from = editing
    setEditing({ kind: 'none' })
    const opener =
      from.kind === 'edit'
        ? `[data-provider="${CSS.escape(from.id)}"] [data-action="edit"]`
        : '[data-action="add-provider"]'
    focusWhenReady(() => list.current?.querySelector<HTMLElement>(opener))
  }
  const closeAfterSave = (provider: ProviderView, check: ProviderCheck | null) => {
    closeForm()
    setSaved(
      check?.ok
        ? `Saved ${provider.label}. ${check.message}`
        : `Saved ${provider.label} without a working connection${check ? `: ${check.message}` : '.'}`
    )
  }
  if (!settings) return <p className="note">Loading…</p>

  const run = async (change: 'settings:setActiveProvider' | 'settings:removeProvider', id: string) => {
    setError(null)
    setError(await useSettingsStore.getState().save(client, change, { id }))
  }

  return (
    <div className="provider-list" ref={list}>
      {settings.providers.length === 0 && <p className="note">No provider yet.</p>}
      <ul aria-label="Providers">
        {settings.providers.map((provider) => (
          <li
            key={provider.id}
            className="provider-row"
            data-provider={provider.id}
            data-active={provider.id === settings.activeProviderId || undefined}
          >
            {editing.kind === 'edit' && editing.id === provider.id ? (
              <ProviderSettings provider={provider} activate={false} onSaved={closeAfterSave} onCancel={closeForm} />
            ) : (
              <ProviderSummary
                provider={provider}
                active={provider.id === settings.activeProviderId}
                confirming={confirmRemove === provider.id}
                onEdit={() => openForm({ kind: 'edit', id: provider.id })}
                onActivate={() => void run('settings:setActiveProvider', provider.id)}
                onRemove={() => setConfirmRemove(provider.id)}
                onConfirmRemove={(confirmed) => {
                  setConfirmRemove(null)
                  if (confirmed) void run('settings:removeProvider', provider.id)
                }}
              />
            )}
          </li>
        ))}
      </ul>
      {editing.kind === 'new' ? (
        <section aria-label="New provider" className="card" data-form="new-provider">
          <h3>New provider</h3>
          <ProviderSettings activate={false} onSaved={closeAfterSave} onCancel={closeForm} />
        </section>
      ) : (
        <button
          type="button"
          data-action="add-provider"
          onClick={() => {
            setSaved(null)
            openForm({ kind: 'new' })
          }}
        >
          Add provider
        </button>
      )}
      <p role="status" className="note">
        {saved}
      </p>
      <FormError message={error} />
    </div>
  )
}

interface SummaryProps {
  provider: ProviderView
  active: boolean
  confirming: boolean
  onEdit(): void
  onActivate(): void
  onRemove(): void
  onConfirmRemove(confirmed: boolean): void
}

function ProviderSummary({ provider, active, confirming, ...on }: SummaryProps): ReactNode {
  return (
    <div className="provider-summary card" aria-label={`Provider ${provider.label}`} role="group">
      <div className="provider-title">
        <strong>{provider.label}</strong>
        {active && <span className="pill">active</span>}
      </div>
      <dl className="provider-facts">
        <dt>Kind</dt>
        <dd>{shortKindLabel(provider.kind)}</dd>
        <dt>Model</dt>
        <dd>
          {provider.model}
          <span className="note"> — {describeModel(provider.model)}</span>
        </dd>
        <dt>Base URL</dt>
        <dd>{provider.baseUrl ?? 'default'}</dd>
        <dt>Key</dt>
        <dd className="key-hint">{provider.hasKey ? `key …${provider.keyHint ?? ''}` : 'no key'}</dd>
      </dl>
      {confirming ? (
        <div className="row" role="alertdialog" aria-label={`Remove ${provider.label}?`}>
          <span>Remove {provider.label} and its stored key?</span>
          <button
            type="button"
            className="danger irreversible"
            onClick={() => on.onConfirmRemove(true)}
            ref={focusOnMount}
          >
            Remove
          </button>
          <button type="button" onClick={() => on.onConfirmRemove(false)}>
            Keep
          </button>
        </div>
      ) : (
        <div className="row">
          {!active && (
            <button type="button" onClick={on.onActivate} aria-label={`Use ${provider.label}`}>
              Make active
            </button>
          )}
          <button type="button" data-action="edit" onClick={on.onEdit} aria-label={`Edit ${provider.label}`}>
            Edit
          </button>
          <button type="button" className="danger" onClick={on.onRemove} aria-label={`Remove ${provider.label}`}>
            Remove
          </button>
        </div>
      )}
    </div>
  )
}
