import { create } from 'zustand'
import type { ApprovalItem } from '../../../../shared/contract/approvals'
import { nextSelection } from './approval-model'

interface ApprovalsSlice {
  items: ApprovalItem[]
  selectedId: string | null
  setItems(items: ApprovalItem[]): void
  select(id: string | null): void
  /** j/k: moves the selection by `delta` items, clamped. */
  move(delta: number): void
}

export const useApprovalsStore = create<ApprovalsSlice>((set) => ({
  items: [],
  selectedId: null,
  setItems: (items) =>
    set((state) => ({ items, selectedId: nextSelection(state.items, items, state.selectedId) })),
  select: (id) => set({ selectedId: id }),
  move: (delta) =>
    set((state) => {
      if (state.items.length === 0) return { selectedId: null }
      const current = state.items.findIndex((item) => item.id === state.selectedId)
      const index = Math.max(0, Math.min(state.items.length - 1, (current < 0 ? 0 : current + delta)))
      return { selectedId: state.items[index].id }
    })
}))

/** The nav badge: how many items wait. */
export const usePendingApprovalCount = (): number => useApprovalsStore((state) => state.items.length)
