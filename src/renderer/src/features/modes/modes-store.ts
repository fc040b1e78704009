import { create } from 'zustand'
import type { ModeEntry, ModesListing, ModeScope } from './modes-api'

/** What the editor shows: a listed mode (by slug; the listing holds the winning one) or a new draft. */
export type Selection = { kind: 'mode'; slug: string } | { kind: 'new'; template?: ModeEntry; scope?: ModeScope } | null

interface ModesSlice {
  listing: ModesListing | null
  selection: Selection
  /** Bumped when the editor must reload its draft from the listing (after save, reset, import). */
  revision: number
  setListing(listing: ModesListing): void
  select(selection: Selection): void
}

export const useModesStore = create<ModesSlice>((set) => ({
  listing: null,
  selection: null,
  revision: 0,
  setListing: (listing) => set((state) => ({ listing, revision: state.revision + 1 })),
  select: (selection) => set((state) => ({ selection, revision: state.revision + 1 }))
}))

export const ORIGIN_LABELS: Record<ModeEntry['origin'], string> = {
  builtin: 'Built-in',
  global: 'Global',
  project: 'Project'
}
