import { create } from 'zustand'
import { sameJson } from '../same-json'
import type { ModusClient } from '../../../../shared/contract'
import type { WorkspaceInfo } from '../../../../shared/contract/workspace'

interface WorkspaceSlice {
  current: WorkspaceInfo | null
  recent: string[]
  /** The user asked to see the trust prompt again (header button, a "not trusted" banner). */
  trustPromptRequested: boolean
  requestTrustPrompt(open: boolean): void
  setCurrent(workspace: WorkspaceInfo | null): void
  /** Reads the open workspace from the core. */
  load(client: ModusClient): Promise<void>
  /** Reads the folders opened lately. */
  loadRecent(client: ModusClient): Promise<void>
  /** Folders whose path starts with what the user typed (none when the core refused). */
  complete(client: ModusClient, path: string): Promise<string[] | null>
  /** Opens a folder the core checks; the error text when it refused. */
  open(client: ModusClient, path: string): Promise<string | null>
  /** The native folder dialog: whether a folder was opened, or the error text. */
  pick(client: ModusClient): Promise<{ opened: boolean; error: string | null }>
  /** Answers the trust prompt for the grants shown; the error text when the core refused. */
  trust(client: ModusClient, trusted: boolean, grantsHash: string): Promise<string | null>
}

export const useWorkspaceStore = create<WorkspaceSlice>((set) => ({
  current: null,
  recent: [],
  trustPromptRequested: false,
  requestTrustPrompt: (trustPromptRequested) => set({ trustPromptRequested }),
  setCurrent: (current) => set({ current }),
  async load(client) {
    const result = await client.request('workspace:current', {})
    if (result.ok) set({ current: result.value })
  },
  async loadRecent(client) {
    const result = await client.request('workspace:recent', {})
    if (result.ok) set((state) => (sameJson(state.recent, result.value) ? state : { recent: result.value }))
  },
  async complete(client, path) {
    const result = await client.request('workspace:complete', { path })
    return result.ok ? result.value.folders : null
  },
  async open(client, path) {
    const result = await client.request('workspace:open', { path })
    if (!result.ok) return result.error.message
    set({ current: result.value })
    return null
  },
  async pick(client) {
    const result = await client.request('workspace:pick', {})
    if (!result.ok) return { opened: false, error: result.error.message }
    if (result.value) set({ current: result.value })
    return { opened: Boolean(result.value), error: null }
  },
  async trust(client, trusted, grantsHash) {
    const result = await client.request('workspace:trust', { trusted, grantsHash })
    if (!result.ok) return result.error.message
    set({ current: result.value })
    return null
  }
}))
