import { create } from 'zustand'
import type { ChangeView } from '../../../../shared/contract/approvals'

interface ReviewSlice {
  /** Each task's changes (reviewed and auto-applied), newest last. */
  byTask: Record<string, ChangeView[]>
  setChanges(taskId: string, changes: ChangeView[]): void
  upsertChange(change: ChangeView): void
}

export const useReviewStore = create<ReviewSlice>((set) => ({
  byTask: {},
  setChanges: (taskId, changes) => set((state) => ({ byTask: { ...state.byTask, [taskId]: changes } })),
  upsertChange: (change) =>
    set((state) => {
      const list = state.byTask[change.taskId] ?? []
      const index = list.findIndex((c) => c.id === change.id)
      const next = index < 0 ? [...list, change] : list.map((c, n) => (n === index ? change : c))
      return { byTask: { ...state.byTask, [change.taskId]: next } }
    })
}))
