import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { TerminalInfo } from '../../../../shared/contract/terminal'
import { nextActiveTerminal, orderTerminals } from './terminal-model'

interface TerminalSlice {
  terminals: TerminalInfo[]
  activeId: string | null
  /** Tabs whose view was opened once: kept mounted (hidden) so their screen survives a switch. */
  openedIds: string[]
  setTerminals(list: TerminalInfo[]): void
  select(id: string): void
  /** Reads the terminal list from the core. */
  load(client: ModusClient): Promise<void>
}

export const useTerminalStore = create<TerminalSlice>((set, get) => ({
  terminals: [],
  activeId: null,
  openedIds: [],
  setTerminals: (list) =>
    set((state) => {
      const terminals = orderTerminals(list)
      const activeId = nextActiveTerminal(terminals, state.activeId)
      const known = new Set(terminals.map((t) => t.id))
      const openedIds = [...state.openedIds.filter((id) => known.has(id))]
      if (activeId && !openedIds.includes(activeId)) openedIds.push(activeId)
      return { terminals, activeId, openedIds }
    }),
  select: (id) =>
    set((state) => ({
      activeId: id,
      openedIds: state.openedIds.includes(id) ? state.openedIds : [...state.openedIds, id]
    })),
  async load(client) {
    const result = await client.request('terminal:list', {})
    if (result.ok) get().setTerminals(result.value)
  }
}))

/** Terminals with a command still running (for a nav badge). */
export const useRunningTerminalCount = (): number =>
  useTerminalStore((state) => state.terminals.filter((t) => t.command !== null && t.command.endedAt === null).length)
