import { create } from 'zustand'
import type { WorkspaceInfo } from '../../../../shared/contract/workspace'

interface WorkspaceSlice {
  current: WorkspaceInfo | null
  recent: string[]
  /** The user asked to see the trust prompt again (header button, a "not trusted" banner). */
  trustPromptRequested: boolean
  requestTrustPrompt(open: boolean): void
  setCurrent(workspace: WorkspaceInfo | null): void
  setRecent(recent: string[]): void
}

export const useWorkspaceStore = create<WorkspaceSlice>((set) => ({
  current: null,
  recent: [],
  trustPromptRequested: false,
  requestTrustPrompt: (trustPromptRequested) => set({ trustPromptRequested }),
  setCurrent: (current) => set({ current }),
  setRecent: (recent) => set({ recent })
}))
