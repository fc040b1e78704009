import { useCallback, useEffect, type ReactNode } from 'react'
import type { ProviderView } from '../../../../shared/contract/settings'
import { PROVIDERS } from '../../../../shared/providers/descriptors'
import { useClient } from '../../client/client-context'
import { checkDraft, type ProviderDraft } from './provider-form-model'
import { choiceLabel, describeModel, suggestedModels } from './model-facts'
import { endpointKey, useProviderModelsStore } from '../../common/settings/provider-models-store'

export interface ModelPickerProps {
  draft: ProviderDraft
  /** The saved provider being edited (its stored key lists the models when none is typed). */
  provider?: ProviderView
  inputId: string
  problem?: string
  /** Marks the field when testing the provider found the model missing. */
  invalid?: { 'aria-invalid'?: boolean; 'aria-errormessage'?: string }
  onChange(model: string): void
}

/** Waits for typing in the key or URL to settle before asking the provider. */
const LIST_DELAY_MS = 400

/**
 * The model field: what the provider lists (`GET /v1/models`) with retirement dates, the local table
 * when it cannot be asked. Any id can still be typed: a model neither knows is used as given.
 */
export function ModelPicker({ draft, provider, inputId, problem, invalid, onChange }: ModelPickerProps): ReactNode {
  const client = useClient()
  const endpoint = endpointKey(draft.kind, draft.baseUrl)
  const listing = useProviderModelsStore((state) => state.listings[endpoint])
  const listModels = useProviderModelsStore((state) => state.list)
  const baseUrlProblem = checkDraft(draft).baseUrl
  const canAsk =
    !baseUrlProblem && (draft.apiKey.trim() !== '' || Boolean(provider?.hasKey) || !PROVIDERS[draft.kind].needsKey)

  const list = useCallback(
    () =>
      listModels(client, endpoint, {
        kind: draft.kind,
        ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}),
        ...(draft.apiKey.trim() ? { apiKey: draft.apiKey.trim() } : {}),
        ...(provider ? { providerId: provider.id } : {})
      }),
    [client, endpoint, draft.kind, draft.baseUrl, draft.apiKey, provider, listModels]
  )

  useEffect(() => {
    if (!canAsk) return
    const timer = setTimeout(() => void list(), LIST_DELAY_MS)
    return () => clearTimeout(timer)
    // Asked again when the endpoint or the typed key changes, not on every render.
  }, [canAsk, endpoint, draft.apiKey]) // eslint-disable-line react-hooks/exhaustive-deps

  const listed = listing?.state === 'listed' ? listing.models : null
  const chosen = listed?.find((m) => m.id === draft.model.trim())
  const listId = `${inputId}-list`
  const factsId = `${inputId}-facts`
  return (
    <>
      <label htmlFor={inputId}>Model</label>
      <div className="model-picker">
        <input
          id={inputId}
          value={draft.model}
          aria-invalid={Boolean(problem)}
          list={listId}
          aria-describedby={problem ? `${inputId}-error` : factsId}
          {...invalid}
          onChange={(event) => onChange(event.target.value)}
        />
        <button type="button" disabled={!canAsk || listing?.state === 'loading'} onClick={() => void list()}>
          List models
        </button>
      </div>
      <datalist id={listId}>
        {listed
          ? listed.map((choice) => (
              <option key={choice.id} value={choice.id} label={choiceLabel(choice) || undefined} />
            ))
          : suggestedModels(draft.kind).map((id) => <option key={id} value={id} />)}
      </datalist>
      <p className="note model-listing" role="status">
        {listingLine(listing, canAsk)}
      </p>
      {problem ? (
        <p className="field-error" id={`${inputId}-error`}>
          {problem}
        </p>
      ) : (
        draft.model.trim() && (
          <p className="note" id={factsId}>
            {describeModel(draft.model.trim(), chosen)}
          </p>
        )
      )}
    </>
  )
}

function listingLine(
  listing: ReturnType<typeof useProviderModelsStore.getState>['listings'][string] | undefined,
  canAsk: boolean
): string {
  if (!listing)
    return canAsk
      ? 'Asking the provider for its models…'
      : 'Suggestions from the built-in table; add the key to list the provider’s own models.'
  if (listing.state === 'loading') return 'Asking the provider for its models…'
  if (listing.state === 'failed')
    return `Could not list the provider’s models (${listing.message}); suggestions from the built-in table.`
  const retiring = listing.models.filter((m) => m.retiresOn).length
  return `${listing.models.length} models from the provider${retiring ? `, ${retiring} with a retirement date` : ''}.`
}
