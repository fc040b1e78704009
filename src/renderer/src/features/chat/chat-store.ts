import { create } from 'zustand'
import type { AgentEvent } from '../../../../shared/agent/events'
import type { TaskSummary } from '../../../../shared/contract/task'
import { emptyTaskView, reduceTaskEvent, type TaskView } from './task-view'

interface ChatSlice {
  activeTaskId: string | null
  tasks: Record<string, TaskSummary>
  views: Record<string, TaskView>
  setActiveTask(taskId: string | null): void
  upsertTask(task: TaskSummary): void
  applyEvent(taskId: string, event: AgentEvent): void
  /** Replaces a task's view with a full replay (after a reconnect or when opening from history). */
  replay(taskId: string, events: AgentEvent[]): void
}

export const useChatStore = create<ChatSlice>((set) => ({
  activeTaskId: null,
  tasks: {},
  views: {},
  setActiveTask: (taskId) => set({ activeTaskId: taskId }),
  upsertTask: (task) => set((state) => ({ tasks: { ...state.tasks, [task.id]: task } })),
  applyEvent: (taskId, event) =>
    set((state) => ({
      views: { ...state.views, [taskId]: reduceTaskEvent(state.views[taskId] ?? emptyTaskView(), event) }
    })),
  replay: (taskId, events) =>
    set((state) => ({ views: { ...state.views, [taskId]: events.reduce(reduceTaskEvent, emptyTaskView()) } }))
}))

export const useActiveTaskView = (): TaskView | null =>
  useChatStore((state) => (state.activeTaskId ? (state.views[state.activeTaskId] ?? null) : null))
