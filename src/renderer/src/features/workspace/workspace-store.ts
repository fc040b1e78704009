import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { WorkspaceInfo } from '../../../../shared/contract/workspace'

interface WorkspaceSlice {
  current: WorkspaceInfo | null
  recent: string[]
  /** The user asked to see the trust prompt again (header button, a "not trusted" banner). */
  trustPromptRequested: boolean
  requestTrustPrompt(open: boolean): void
  setCurrent(workspace: WorkspaceInfo | null): void
  setRecent(recent: string[]): void
  /** Reads the open workspace from the core. */
  load(client: ModusClient): Promise<void>
}

export const useWorkspaceStore = create<WorkspaceSlice>((set) => ({
  current: null,
  recent: [],
  trustPromptRequested: false,
  requestTrustPrompt: (trustPromptRequested) => set({ trustPromptRequested }),
  setCurrent: (current) => set({ current }),
  setRecent: (recent) => set({ recent }),
  async load(client) {
    const result = await client.request('workspace:current', {})
    if (result.ok) set({ current: result.value })
  }
}))
