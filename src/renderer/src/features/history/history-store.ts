import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { TaskSummary } from '../../../../shared/contract/task'
import { unwrap } from '../../client/unwrap'
import { useChatStore } from '../../common/chat/chat-store'

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
  /**
   * Shows a saved task in the chat with its whole history replayed, and runs it again when asked
   * (the replay comes first, so the resumed run's events arrive after it, never under it).
   * Throws what the core refused.
   */
  openInChat(client: ModusClient, task: TaskSummary, resume: boolean): Promise<void>
  /** The task as a file to download. Throws what the core refused. */
  exportTask(
    client: ModusClient,
    taskId: string,
    format: 'markdown' | 'json'
  ): Promise<{ fileName: string; content: string }>
  /** Deletes a task and its history. Throws what the core refused. */
  deleteTask(client: ModusClient, taskId: string): Promise<void>
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
  },
  async openInChat(client, task, resume) {
    const events = unwrap(await client.request('task:events', { taskId: task.id }))
    const chat = useChatStore.getState()
    chat.upsertTask(task)
    chat.replay(task.id, events)
    chat.setActiveTask(task.id)
    if (resume) get().upsert(await chat.resume(client, task.id))
  },
  exportTask: async (client, taskId, format) => unwrap(await client.request('task:export', { taskId, format })),
  async deleteTask(client, taskId) {
    unwrap(await client.request('task:delete', { taskId }))
    get().remove(taskId)
  }
}))
