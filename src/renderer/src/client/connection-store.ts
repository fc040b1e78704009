import { create } from 'zustand'
import type { ConnectionState } from './web-client'

interface ConnectionSlice {
  state: ConnectionState
  /** Increments on every reconnect so features know to resync from the core. */
  generation: number
  /** The first screen's state has been read from the core at least once (see sync-with-core). */
  synced: boolean
  setState(state: ConnectionState): void
  setSynced(): void
}

export const useConnectionStore = create<ConnectionSlice>((set, get) => ({
  state: 'connecting',
  generation: 0,
  synced: false,
  setSynced: () => set({ synced: true }),
  setState: (state) =>
    set({ state, generation: state === 'open' && get().state !== 'open' ? get().generation + 1 : get().generation })
}))
