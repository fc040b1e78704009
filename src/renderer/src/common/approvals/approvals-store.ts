import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { ApprovalDecision, ApprovalItem } from '../../../../shared/contract/approvals'
import { unwrap } from '../../client/unwrap'
import { nextSelection } from './approval-model'

interface ApprovalsSlice {
  items: ApprovalItem[]
  selectedId: string | null
  setItems(items: ApprovalItem[]): void
  select(id: string | null): void
  /** j/k: moves the selection by `delta` items, clamped. */
  move(delta: number): void
  /** Reloads the queue from the core, the source of truth (after a (re)connect). */
  load(client: ModusClient): Promise<void>
  /**
   * Sends a decision; the item leaves the queue at once (the core's `approvals:changed` confirms).
   * An item the core no longer has (decided elsewhere, task cancelled) is dropped with a message.
   */
  decide(client: ModusClient, decision: ApprovalDecision): Promise<void>
}

export const useApprovalsStore = create<ApprovalsSlice>((set, get) => ({
  items: [],
  selectedId: null,
  setItems: (items) => set((state) => ({ items, selectedId: nextSelection(state.items, items, state.selectedId) })),
  select: (id) => set({ selectedId: id }),
  move: (delta) =>
    set((state) => {
      if (state.items.length === 0) return { selectedId: null }
      const current = state.items.findIndex((item) => item.id === state.selectedId)
      const index = Math.max(0, Math.min(state.items.length - 1, current < 0 ? 0 : current + delta))
      return { selectedId: state.items[index].id }
    }),
  async load(client) {
    const result = await client.request('approvals:list', {})
    if (result.ok) get().setItems(result.value)
  },
  async decide(client, decision) {
    const { resolved } = unwrap(await client.request('approvals:decide', decision))
    get().setItems(get().items.filter((item) => item.id !== decision.approvalId))
    if (!resolved) throw new Error('This approval was already answered or its task stopped.')
  }
}))

/** The nav badge: how many items wait. */
export const usePendingApprovalCount = (): number => useApprovalsStore((state) => state.items.length)
