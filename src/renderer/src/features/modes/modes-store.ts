import { create } from 'zustand'
import type { ModeEntry, ModesListing, ModeScope } from './modes-api'

/** What the editor shows: a listed mode (by slug; the listing holds the winning one) or a new draft. */
export type Selection = { kind: 'mode'; slug: string } | { kind: 'new'; template?: ModeEntry; scope?: ModeScope } | null

interface ModesSlice {
  listing: ModesListing | null
  selection: Selection
  /** Bumped when the editor must reload its draft from the listing (after save, reset, import). */
  revision: number
  /**
   * `reload`: the user's own action changed the modes, so the open editor starts over from the
   * listing. Changes from elsewhere (another window, a file edited on disk) keep an unsaved draft.
   */
  setListing(listing: ModesListing, options?: { reload?: boolean }): void
  select(selection: Selection): void
}

export const useModesStore = create<ModesSlice>((set) => ({
  listing: null,
  selection: null,
  revision: 0,
  setListing: (listing, options) =>
    set((state) => ({ listing, revision: options?.reload ? state.revision + 1 : state.revision })),
  select: (selection) => set((state) => ({ selection, revision: state.revision + 1 }))
}))

export const ORIGIN_LABELS: Record<ModeEntry['origin'], string> = {
  builtin: 'Built-in',
  global: 'Global',
  project: 'Project'
}
