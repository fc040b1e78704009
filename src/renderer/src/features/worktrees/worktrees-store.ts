import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { ChangeDecision, ChangeView } from '../../../../shared/contract/approvals'
import type { TaskSummary } from '../../../../shared/contract/task'
import type { ApplyOutcome } from '../../../../shared/contract/worktree-review'
import { unwrap } from '../../client/unwrap'
import { withTask } from './worktree-model'

interface TaskReview {
  changes: ChangeView[] | null
  outcome: ApplyOutcome | null
  error: string | null
}

/** Isolated tasks side by side: their summaries, and the review of the one being brought back. */
interface WorktreesSlice {
  tasks: Record<string, TaskSummary>
  selectedId: string | null
  reviews: Record<string, TaskReview>
  setTasks(tasks: TaskSummary[]): void
  upsertTask(task: TaskSummary): void
  select(taskId: string | null): void
  load(client: ModusClient): Promise<void>
  /** Reads the task's changes against its base commit (again: the main tree may have moved). */
  openReview(client: ModusClient, taskId: string): Promise<void>
  /** "Apply to my working tree" with the review's decisions; the changes are read again after. */
  apply(client: ModusClient, taskId: string, changes: ChangeDecision[]): Promise<void>
}

const EMPTY: TaskReview = { changes: null, outcome: null, error: null }

export const useWorktreesStore = create<WorktreesSlice>((set, get) => {
  const patch = (taskId: string, review: Partial<TaskReview>): void =>
    set((state) => ({ reviews: { ...state.reviews, [taskId]: { ...(state.reviews[taskId] ?? EMPTY), ...review } } }))
  return {
    tasks: {},
    selectedId: null,
    reviews: {},
    setTasks: (tasks) => set({ tasks: Object.fromEntries(tasks.map((task) => [task.id, task])) }),
    upsertTask: (task) => set((state) => ({ tasks: withTask(state.tasks, task) })),
    select: (taskId) => set({ selectedId: taskId }),
    async load(client) {
      const result = await client.request('task:list', {})
      if (result.ok) get().setTasks(result.value)
    },
    async openReview(client, taskId) {
      patch(taskId, { error: null })
      const result = await client.request('worktree:changes', { taskId })
      if (result.ok) patch(taskId, { changes: result.value })
      else patch(taskId, { error: result.error.message })
    },
    async apply(client, taskId, changes) {
      const outcome = unwrap(await client.request('worktree:apply', { taskId, changes }))
      patch(taskId, { outcome })
      await get().openReview(client, taskId)
    }
  }
})
