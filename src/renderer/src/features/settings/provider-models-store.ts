import { create } from 'zustand'
import type { ModelChoice } from '../../../../shared/models'

/** What one provider listed, or why it could not. Keyed by the endpoint asked (kind + base URL). */
export type ModelListing = { state: 'loading' } | { state: 'listed'; models: ModelChoice[] } | { state: 'failed'; message: string }

interface ProviderModelsSlice {
  listings: Record<string, ModelListing>
  setListing(endpoint: string, listing: ModelListing): void
}

export const useProviderModelsStore = create<ProviderModelsSlice>((set) => ({
  listings: {},
  setListing: (endpoint, listing) => set((state) => ({ listings: { ...state.listings, [endpoint]: listing } }))
}))

export const endpointKey = (kind: string, baseUrl: string | undefined): string => `${kind} ${baseUrl?.trim() ?? ''}`

/** Every model any provider listed this session: the task bar looks a task's model up here. */
export const listedModels = (listings: Record<string, ModelListing>): ModelChoice[] =>
  Object.values(listings).flatMap((listing) => (listing.state === 'listed' ? listing.models : []))
