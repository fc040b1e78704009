import { create } from 'zustand'
import type { ModusClient, RequestInput } from '../../../../shared/contract'
import type { McpScope, McpSnapshot } from '../../../../shared/contract/mcp'
import type { Result } from '../../../../shared/result'

interface McpSlice {
  snapshot: McpSnapshot | null
  /** Server being edited (its name), `''` for a new one, null when the form is closed. */
  editing: string | null
  setSnapshot(snapshot: McpSnapshot): void
  edit(name: string | null): void
  /** Reads the servers from the core. */
  load(client: ModusClient): Promise<void>
  /** The actions below show the servers as the core answers after them; the error text when it refused. */
  restart(client: ModusClient, server: string): Promise<string | null>
  remove(client: ModusClient, server: string, scope: McpScope): Promise<string | null>
  setTool(
    client: ModusClient,
    server: string,
    tool: string,
    change: { enabled?: boolean; alwaysAllow?: boolean }
  ): Promise<string | null>
  /** Writes a server to its scope's config file (`previousName` when it was renamed). */
  save(client: ModusClient, server: RequestInput<'mcp:saveServer'>): Promise<string | null>
}

export const useMcpStore = create<McpSlice>((set) => {
  const show = (result: Result<McpSnapshot>): string | null => {
    if (!result.ok) return result.error.message
    set({ snapshot: result.value })
    return null
  }
  return {
    snapshot: null,
    editing: null,
    setSnapshot: (snapshot) => set({ snapshot }),
    edit: (editing) => set({ editing }),
    async load(client) {
      const result = await client.request('mcp:list', {})
      if (result.ok) set({ snapshot: result.value })
    },
    restart: async (client, server) => show(await client.request('mcp:restart', { server })),
    remove: async (client, server, scope) => show(await client.request('mcp:removeServer', { scope, name: server })),
    setTool: async (client, server, tool, change) =>
      show(await client.request('mcp:setTool', { server, tool, ...change })),
    save: async (client, server) => show(await client.request('mcp:saveServer', server))
  }
})
