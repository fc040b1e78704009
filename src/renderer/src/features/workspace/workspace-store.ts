import { create } from 'zustand'
import type { WorkspaceInfo } from '../../../../shared/contract/workspace'

interface WorkspaceSlice {
  current: WorkspaceInfo | null
  recent: string[]
  setCurrent(workspace: WorkspaceInfo | null): void
  setRecent(recent: string[]): void
}

export const useWorkspaceStore = create<WorkspaceSlice>((set) => ({
  current: null,
  recent: [],
  setCurrent: (current) => set({ current }),
  setRecent: (recent) => set({ recent })
}))
