import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { McpSnapshot } from '../../../../shared/contract/mcp'

interface McpSlice {
  snapshot: McpSnapshot | null
  /** Server being edited (its name), `''` for a new one, null when the form is closed. */
  editing: string | null
  setSnapshot(snapshot: McpSnapshot): void
  edit(name: string | null): void
  /** Reads the servers from the core. */
  load(client: ModusClient): Promise<void>
}

export const useMcpStore = create<McpSlice>((set) => ({
  snapshot: null,
  editing: null,
  setSnapshot: (snapshot) => set({ snapshot }),
  edit: (editing) => set({ editing }),
  async load(client) {
    const result = await client.request('mcp:list', {})
    if (result.ok) set({ snapshot: result.value })
  }
}))
