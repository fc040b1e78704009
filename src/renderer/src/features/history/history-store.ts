import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { TaskSummary } from '../../../../shared/contract/task'

interface HistorySlice {
  tasks: Record<string, TaskSummary>
  loaded: boolean
  query: string
  setAll(tasks: TaskSummary[]): void
  upsert(task: TaskSummary): void
  remove(taskId: string): void
  setQuery(query: string): void
  /** Reads every saved task from the core; the error text when it refused. */
  load(client: ModusClient): Promise<string | null>
}

export const useHistoryStore = create<HistorySlice>((set, get) => ({
  tasks: {},
  loaded: false,
  query: '',
  setAll: (tasks) => set({ tasks: Object.fromEntries(tasks.map((task) => [task.id, task])), loaded: true }),
  upsert: (task) => set((state) => ({ tasks: { ...state.tasks, [task.id]: task } })),
  remove: (taskId) =>
    set((state) => {
      const { [taskId]: _removed, ...rest } = state.tasks
      return { tasks: rest }
    }),
  setQuery: (query) => set({ query }),
  async load(client) {
    const result = await client.request('task:list', {})
    if (!result.ok) return result.error.message
    get().setAll(result.value)
    return null
  }
}))
