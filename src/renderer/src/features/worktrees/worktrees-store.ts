import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { ChangeDecision, ChangeView } from '../../../../shared/contract/approvals'
import type { ApplyOutcome, ProposedCommand, WorktreeProposal } from '../../../../shared/contract/worktree-review'
import type { WorktreeStartInput, WorktreeTask } from '../../../../shared/contract/worktrees'
import { unwrap } from '../../client/unwrap'

interface TaskReview {
  changes: ChangeView[] | null
  outcome: ApplyOutcome | null
  error: string | null
}

/** Isolated tasks side by side (the core's list, kept by `worktrees:changed`), and the review of the one brought back. */
interface WorktreesSlice {
  tasks: WorktreeTask[]
  selectedId: string | null
  reviews: Record<string, TaskReview>
  setTasks(tasks: WorktreeTask[]): void
  select(id: string | null): void
  load(client: ModusClient): Promise<void>
  /** Throws what the core refused. */
  start(client: ModusClient, input: WorktreeStartInput): Promise<WorktreeTask>
  /** Removes the worktree and its branch (the view confirmed first). Throws what the core refused. */
  discard(client: ModusClient, id: string): Promise<void>
  /** Reads the task's changes against its base commit (again: the main tree may have moved). */
  openReview(client: ModusClient, taskId: string): Promise<void>
  /** "Apply to my working tree" with the review's decisions; the changes are read again after. */
  apply(client: ModusClient, taskId: string, changes: ChangeDecision[]): Promise<void>
  /** "Merge branch" / "Open a PR": the command waits for the user's answer in the queue. Throws what the core refused. */
  propose(client: ModusClient, taskId: string, action: WorktreeProposal): Promise<ProposedCommand>
}

const EMPTY: TaskReview = { changes: null, outcome: null, error: null }

export const useWorktreesStore = create<WorktreesSlice>((set, get) => {
  const patch = (taskId: string, review: Partial<TaskReview>): void =>
    set((state) => ({ reviews: { ...state.reviews, [taskId]: { ...(state.reviews[taskId] ?? EMPTY), ...review } } }))
  return {
    tasks: [],
    selectedId: null,
    reviews: {},
    setTasks: (tasks) => set({ tasks }),
    select: (id) => set({ selectedId: id }),
    async load(client) {
      const result = await client.request('worktrees:list', {})
      if (result.ok) get().setTasks(result.value)
    },
    async start(client, input) {
      const task = unwrap(await client.request('worktrees:start', input))
      set((state) => ({ tasks: [task, ...state.tasks.filter((entry) => entry.id !== task.id)] }))
      return task
    },
    async discard(client, id) {
      unwrap(await client.request('worktrees:discard', { id }))
      set((state) => ({
        tasks: state.tasks.filter((task) => task.id !== id),
        selectedId: state.selectedId === id ? null : state.selectedId
      }))
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
    },
    async propose(client, taskId, action) {
      return unwrap(await client.request('worktree:propose', { taskId, action }))
    }
  }
})
