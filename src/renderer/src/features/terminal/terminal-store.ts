import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { TerminalInfo } from '../../../../shared/contract/terminal'
import type { Result } from '../../../../shared/result'
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
  /** Opens a user terminal and selects it. The actions below answer with the error text, or null. */
  create(client: ModusClient): Promise<string | null>
  stopCommand(client: ModusClient, terminalId: string): Promise<string | null>
  /** Keeps a task's terminal (e.g. its dev server) running after the task ends. */
  keep(client: ModusClient, terminalId: string, keep: boolean): Promise<string | null>
  kill(client: ModusClient, terminalId: string): Promise<string | null>
  /** What the terminal printed so far (its buffered output), null when the core refused. */
  readOutput(client: ModusClient, terminalId: string): Promise<string | null>
  /** The user's keystrokes, sent as typed. */
  write(client: ModusClient, terminalId: string, data: string): void
  resize(client: ModusClient, terminalId: string, cols: number, rows: number): void
  /** Live output for one terminal's screen; the bytes go straight to the listeners, never into state. */
  onOutput(terminalId: string, listener: (data: string) => void): () => void
  /** Hands a `terminal:data` chunk to that terminal's screens (called by the event router). */
  deliverOutput(terminalId: string, data: string): void
}

const problemOf = (result: Result<unknown>): string | null => (result.ok ? null : result.error.message)

export const useTerminalStore = create<TerminalSlice>((set, get) => {
  // Output streams fast; storing it in zustand would re-render every subscriber per chunk.
  const outputListeners = new Map<string, Set<(data: string) => void>>()
  return {
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
    },
    async create(client) {
      const result = await client.request('terminal:create', {})
      if (result.ok) {
        get().setTerminals([...get().terminals, result.value])
        get().select(result.value.id)
      }
      return problemOf(result)
    },
    stopCommand: async (client, terminalId) => problemOf(await client.request('terminal:stopCommand', { terminalId })),
    keep: async (client, terminalId, keep) => problemOf(await client.request('terminal:keep', { terminalId, keep })),
    kill: async (client, terminalId) => problemOf(await client.request('terminal:kill', { terminalId })),
    async readOutput(client, terminalId) {
      const result = await client.request('terminal:output', { terminalId })
      return result.ok ? result.value.data : null
    },
    write: (client, terminalId, data) => void client.request('terminal:write', { terminalId, data }),
    resize: (client, terminalId, cols, rows) => void client.request('terminal:resize', { terminalId, cols, rows }),
    onOutput(terminalId, listener) {
      const listeners = outputListeners.get(terminalId) ?? new Set()
      outputListeners.set(terminalId, listeners.add(listener))
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && outputListeners.get(terminalId) === listeners) outputListeners.delete(terminalId)
      }
    },
    deliverOutput(terminalId, data) {
      outputListeners.get(terminalId)?.forEach((listener) => listener(data))
    }
  }
})
