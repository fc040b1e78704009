import { create } from 'zustand'
import type { AgentEvent } from '../../../../shared/agent/events'
import type { TaskSummary } from '../../../../shared/contract/task'
import { emptyTaskView, reduceTaskEvents, type TaskView } from './task-view'

interface ChatSlice {
  activeTaskId: string | null
  tasks: Record<string, TaskSummary>
  views: Record<string, TaskView>
  /** Completions the user accepted in this window, by completion item id. */
  accepted: Record<string, true>
  /** The mode the composer starts the next task (or sends the next message) in; null = the task's or the default. */
  composerMode: string | null
  /** The task left for a new one while it still ran or waited: the empty chat says it carries on. */
  leftTaskId: string | null
  setActiveTask(taskId: string | null): void
  /** "New task": an empty chat; a task still running or waiting is remembered as left behind. */
  startNewTask(): void
  upsertTask(task: TaskSummary): void
  applyEvent(taskId: string, event: AgentEvent): void
  /** Several events of one task at once (one render for a frame's worth of streaming). */
  applyEvents(taskId: string, events: readonly AgentEvent[]): void
  /** Replaces a task's view with a full replay (after a reconnect or when opening from history). */
  replay(taskId: string, events: readonly AgentEvent[]): void
  acceptCompletion(itemId: string): void
  setComposerMode(mode: string | null): void
}

export const useChatStore = create<ChatSlice>((set) => ({
  activeTaskId: null,
  tasks: {},
  views: {},
  accepted: {},
  composerMode: null,
  leftTaskId: null,
  setActiveTask: (taskId) => set({ activeTaskId: taskId }),
  startNewTask: () =>
    set((state) => {
      const id = state.activeTaskId
      const status = id ? (state.views[id]?.status ?? state.tasks[id]?.status) : undefined
      return { activeTaskId: null, leftTaskId: status === 'running' || status === 'waiting' ? id : null }
    }),
  upsertTask: (task) => set((state) => ({ tasks: { ...state.tasks, [task.id]: task } })),
  applyEvent: (taskId, event) =>
    set((state) => ({
      views: { ...state.views, [taskId]: reduceTaskEvents(state.views[taskId] ?? emptyTaskView(), [event]) }
    })),
  applyEvents: (taskId, events) =>
    set((state) => ({
      views: { ...state.views, [taskId]: reduceTaskEvents(state.views[taskId] ?? emptyTaskView(), events) }
    })),
  replay: (taskId, events) =>
    set((state) => ({ views: { ...state.views, [taskId]: reduceTaskEvents(emptyTaskView(), events) } })),
  acceptCompletion: (itemId) => set((state) => ({ accepted: { ...state.accepted, [itemId]: true } })),
  setComposerMode: (mode) => set({ composerMode: mode })
}))

export const useActiveTaskView = (): TaskView | null =>
  useChatStore((state) => (state.activeTaskId ? (state.views[state.activeTaskId] ?? null) : null))
