import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { ListModelsInput } from '../../../../shared/contract/settings'
import type { ModelChoice } from '../../../../shared/models'

/** What one provider listed, or why it could not. Keyed by the endpoint asked (kind + base URL). */
export type ModelListing =
  { state: 'loading' } | { state: 'listed'; models: ModelChoice[] } | { state: 'failed'; message: string }

interface ProviderModelsSlice {
  listings: Record<string, ModelListing>
  setListing(endpoint: string, listing: ModelListing): void
  /** Asks the provider at `endpoint` for its models; the listing says loading, then what came back. */
  list(client: ModusClient, endpoint: string, input: ListModelsInput): Promise<void>
}

export const useProviderModelsStore = create<ProviderModelsSlice>((set, get) => ({
  listings: {},
  setListing: (endpoint, listing) => set((state) => ({ listings: { ...state.listings, [endpoint]: listing } })),
  async list(client, endpoint, input) {
    get().setListing(endpoint, { state: 'loading' })
    const result = await client.request('settings:listModels', input)
    get().setListing(
      endpoint,
      result.ok ? { state: 'listed', models: result.value.models } : { state: 'failed', message: result.error.message }
    )
  }
}))

export const endpointKey = (kind: string, baseUrl: string | undefined): string => `${kind} ${baseUrl?.trim() ?? ''}`

/** Every model any provider listed this session: the task bar looks a task's model up here. */
export const listedModels = (listings: Record<string, ModelListing>): ModelChoice[] =>
  Object.values(listings).flatMap((listing) => (listing.state === 'listed' ? listing.models : []))
