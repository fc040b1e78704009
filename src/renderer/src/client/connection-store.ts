import { create } from 'zustand'
import type { ConnectionState } from './web-client'

interface ConnectionSlice {
  state: ConnectionState
  /** Increments on every reconnect so features know to resync from the core. */
  generation: number
  setState(state: ConnectionState): void
}

export const useConnectionStore = create<ConnectionSlice>((set, get) => ({
  state: 'connecting',
  generation: 0,
  setState: (state) =>
    set({ state, generation: state === 'open' && get().state !== 'open' ? get().generation + 1 : get().generation })
}))
