import { create } from 'zustand'
import { sameJson } from '../same-json'
import type { AgentEvent } from '../../../../shared/agent/events'
import type { ModusClient } from '../../../../shared/contract'
import type { ImageAttachment } from '../../../../shared/agent/images'
import type { ModesView } from '../../../../shared/contract/modes'
import type { TaskSummary } from '../../../../shared/contract/task'
import { BUILT_IN_MODES, DEFAULT_MODE_SLUG } from '../../../../shared/modes/builtin'
import { unwrap } from '../../client/unwrap'
import { taskToReopen } from './reopen-task'
import { emptyTaskView, reduceTaskEvents, type TaskView } from './task-view'

export interface ModeOption {
  slug: string
  name: string
  description?: string
  /** Where the mode is defined; a project mode's grants wait for the folder's trust. */
  origin?: 'builtin' | 'global' | 'project'
  /** A project mode the user saved in the app (their own grant). */
  savedByUser?: boolean
  sandbox?: { enabled: boolean; network: string }
}

/** The modes the composer offers and the one it starts in. */
export interface ModeChoices {
  options: ModeOption[]
  defaultSlug: string
}

const choicesOf = (modes: readonly ModeOption[], defaultSlug: string): ModeChoices => ({
  options: modes.map((mode) => ({
    slug: mode.slug,
    name: mode.name,
    description: mode.description,
    origin: mode.origin,
    savedByUser: mode.savedByUser,
    sandbox: mode.sandbox ? { enabled: mode.sandbox.enabled, network: mode.sandbox.network } : undefined
  })),
  defaultSlug
})

/** A live event and the number of replays its task had when it arrived. */
export interface LiveEvent {
  event: AgentEvent
  replays: number
}

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
  /**
   * Live events that waited for a frame, each stamped with `replays[taskId]` when it arrived: one
   * that arrived before the task's latest replay is already in it (the core sent it before the
   * replay's answer), so it is dropped instead of being added a second time at the seam.
   */
  applyLiveEvents(taskId: string, events: readonly LiveEvent[]): void
  /** Replaces a task's view with a full replay (after a reconnect or when opening from history). */
  replay(taskId: string, events: readonly AgentEvent[]): void
  /** How many replays each task's view has had (the stamp of live events, see applyLiveEvents). */
  replays: Record<string, number>
  acceptCompletion(itemId: string): void
  setComposerMode(mode: string | null): void
  /** The modes the core knows (built-in, global, project); the built-ins until it answers. */
  modes: ModeChoices
  setModes(view: ModesView): void
  loadModes(client: ModusClient): Promise<void>
  /**
   * The composer's message: continues the active task (switching it to `switchMode` when given) or
   * starts one in `mode`, then shows that task. Throws what the core refused.
   */
  submit(
    client: ModusClient,
    message: { text: string; mode: string; switchMode?: string; images?: ImageAttachment[] }
  ): Promise<void>
  /** Answers a task's follow-up question (or sends it more instructions). Throws what the core refused. */
  send(client: ModusClient, taskId: string, text: string, mode?: string): Promise<void>
  /** Runs a failed or interrupted task again. Throws what the core refused. */
  resume(client: ModusClient, taskId: string): Promise<TaskSummary>
  /** Stops a running task; the error text when the core refused. */
  cancel(client: ModusClient, taskId: string): Promise<string | null>
  /**
   * After a (re)connect the core is the source of truth: reload the task list and the open task.
   * `reopenLast` (the page's first connection: a reload, a second tab) opens the running or last
   * task, so the user never lands on an empty chat while a task waits; a later reconnect keeps "New task".
   */
  resync(client: ModusClient, options: { reopenLast: boolean }): Promise<void>
  /** Shows a task (e.g. from the approval queue or history) with its full replayed view. */
  openTask(client: ModusClient, taskId: string): Promise<void>
}

export const useChatStore = create<ChatSlice>((set, get) => ({
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
  applyLiveEvents: (taskId, live) => {
    const replays = get().replays[taskId] ?? 0
    const fresh = live.filter((entry) => entry.replays === replays).map((entry) => entry.event)
    if (fresh.length > 0) get().applyEvents(taskId, fresh)
  },
  replays: {},
  replay: (taskId, events) =>
    set((state) => ({
      views: { ...state.views, [taskId]: reduceTaskEvents(emptyTaskView(), events) },
      replays: { ...state.replays, [taskId]: (state.replays[taskId] ?? 0) + 1 }
    })),
  acceptCompletion: (itemId) => set((state) => ({ accepted: { ...state.accepted, [itemId]: true } })),
  setComposerMode: (mode) => set({ composerMode: mode }),
  modes: choicesOf(BUILT_IN_MODES, DEFAULT_MODE_SLUG),
  setModes: (view) =>
    set((state) => {
      const modes = choicesOf(view.modes, view.defaultSlug)
      return sameJson(state.modes, modes) ? state : { modes }
    }),
  async loadModes(client) {
    const result = await client.request('modes:list', {})
    if (result.ok) get().setModes(result.value)
  },
  async submit(client, { text, mode, switchMode, images }) {
    const { activeTaskId } = get()
    const withImages = images?.length ? { images } : {}
    const task = activeTaskId
      ? unwrap(await client.request('task:send', { taskId: activeTaskId, text, mode: switchMode, ...withImages }))
      : unwrap(await client.request('task:start', { text, mode, ...withImages }))
    get().upsertTask(task)
    set({ activeTaskId: task.id, composerMode: null })
  },
  async send(client, taskId, text, mode) {
    get().upsertTask(unwrap(await client.request('task:send', { taskId, text, mode })))
  },
  async resume(client, taskId) {
    const task = unwrap(await client.request('task:resume', { taskId }))
    get().upsertTask(task)
    return task
  },
  async cancel(client, taskId) {
    const result = await client.request('task:cancel', { taskId })
    if (!result.ok) return result.error.message
    get().upsertTask(result.value)
    return null
  },
  async resync(client, { reopenLast }) {
    const tasks = await client.request('task:list', {})
    if (!tasks.ok) return
    for (const task of tasks.value) get().upsertTask(task)
    const target = get().activeTaskId ?? (reopenLast ? taskToReopen(tasks.value) : null)
    if (target) await get().openTask(client, target)
  },
  async openTask(client, taskId) {
    const events = await client.request('task:events', { taskId })
    if (events.ok) get().replay(taskId, events.value)
    set({ activeTaskId: taskId })
  }
}))

export const useActiveTaskView = (): TaskView | null =>
  useChatStore((state) => (state.activeTaskId ? (state.views[state.activeTaskId] ?? null) : null))
