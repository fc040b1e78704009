import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { ChangeView } from '../../../../shared/contract/approvals'

/** A file of a waiting change that differs on disk from what the proposal was made against. */
export interface Drift {
  conflict: boolean
  message: string
}

interface ReviewSlice {
  /** Each task's changes (reviewed and auto-applied), newest last. */
  byTask: Record<string, ChangeView[]>
  setChanges(taskId: string, changes: ChangeView[]): void
  upsertChange(change: ChangeView): void
  /** Reads a task's changes from the core; the error text when it refused. */
  load(client: ModusClient, taskId: string): Promise<string | null>
  /** Whether the files of waiting changes changed on disk since the proposal; null when the core refused. */
  checkDrift(client: ModusClient, changeIds: string[]): Promise<Record<string, Drift> | null>
  /** Puts back what an applied change replaced; the error text when the core refused. */
  revert(client: ModusClient, change: ChangeView): Promise<string | null>
}

export const useReviewStore = create<ReviewSlice>((set, get) => ({
  byTask: {},
  setChanges: (taskId, changes) => set((state) => ({ byTask: { ...state.byTask, [taskId]: changes } })),
  upsertChange: (change) =>
    set((state) => {
      const list = state.byTask[change.taskId] ?? []
      const index = list.findIndex((c) => c.id === change.id)
      const next = index < 0 ? [...list, change] : list.map((c, n) => (n === index ? change : c))
      return { byTask: { ...state.byTask, [change.taskId]: next } }
    }),
  async load(client, taskId) {
    const result = await client.request('changes:list', { taskId })
    if (!result.ok) return result.error.message
    get().setChanges(taskId, result.value)
    return null
  },
  async checkDrift(client, changeIds) {
    const result = await client.request('changes:check', { changeIds })
    return result.ok ? Object.fromEntries(result.value.map(({ changeId, ...rest }) => [changeId, rest])) : null
  },
  async revert(client, change) {
    const result = await client.request('changes:revert', { taskId: change.taskId, changeId: change.id })
    if (!result.ok) return result.error.message
    get().upsertChange(result.value)
    return null
  }
}))
