import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { ApprovalDecision, ChangeView } from '../../../../shared/contract/approvals'
import {
  buildEditDecision,
  initialReview,
  openQuestions,
  restoreReview,
  reviewFits,
  unansweredMessage,
  type ChangesetReview
} from './review-model'
import { loadSavedReviews, saveReviews } from './saved-reviews'
import { useApprovalsStore } from '../approvals/approvals-store'
import { useNavigationStore } from '../../navigation-store'

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
  /** Opens the review of putting back what an applied change replaced; the error text when the core refused. */
  revert(client: ModusClient, change: ChangeView): Promise<string | null>
  /**
   * Reviews in progress per approval id (hunk decisions, the edited proposed side). They outlive the
   * review on screen: another queue item, the chat's copy of the same review, a reload.
   */
  drafts: Record<string, ChangesetReview>
  /** Reviews saved in the tab before a reload, not yet checked against their changes. */
  saved: Record<string, unknown>
  updateDraft(
    approvalId: string,
    changes: readonly ChangeView[],
    update: (review: ChangesetReview) => ChangesetReview
  ): void
  dropDraft(approvalId: string): void
  /** Forgets the reviews of approvals no longer waiting. */
  keepDrafts(approvalIds: readonly string[]): void
}

/** The review to show for an approval: the one in progress, else the one saved before a reload, else a fresh one. */
export function reviewFor(
  draft: ChangesetReview | undefined,
  saved: unknown,
  changes: readonly ChangeView[]
): ChangesetReview {
  if (draft && reviewFits(draft, changes)) return draft
  return restoreReview(changes, saved) ?? initialReview(changes)
}

/**
 * The answer an edit approval gets from outside its review (the turn-wide approve, the folded card's
 * accept): the review as it stands, never the bare proposal. Throws while a hunk's question is open.
 */
export function reviewedDecision(
  approvalId: string,
  changes: readonly ChangeView[],
  scope: 'call' | 'turn'
): ApprovalDecision {
  const { drafts, saved } = useReviewStore.getState()
  const review = reviewFor(drafts[approvalId], saved[approvalId], changes)
  const questions = openQuestions(review)
  if (questions.length > 0) throw new Error(unansweredMessage(questions))
  return buildEditDecision(approvalId, changes, review, undefined, scope)
}

const without = <T>(record: Record<string, T>, keep: (id: string) => boolean): Record<string, T> =>
  Object.fromEntries(Object.entries(record).filter(([id]) => keep(id)))

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
  drafts: {},
  saved: loadSavedReviews(),
  updateDraft: (approvalId, changes, update) =>
    set((state) => ({
      drafts: {
        ...state.drafts,
        [approvalId]: update(reviewFor(state.drafts[approvalId], state.saved[approvalId], changes))
      }
    })),
  dropDraft: (approvalId) =>
    set((state) => ({
      drafts: without(state.drafts, (id) => id !== approvalId),
      saved: without(state.saved, (id) => id !== approvalId)
    })),
  keepDrafts: (approvalIds) => {
    const waiting = new Set(approvalIds)
    const { drafts, saved } = get()
    if (Object.keys(drafts).every((id) => waiting.has(id)) && Object.keys(saved).every((id) => waiting.has(id))) return
    set({ drafts: without(drafts, (id) => waiting.has(id)), saved: without(saved, (id) => waiting.has(id)) })
  },
  async revert(client, change) {
    const result = await client.request('changes:revert', { taskId: change.taskId, changeId: change.id })
    if (!result.ok) return result.error.message
    // Nothing is written yet: the undoing waits in the queue as a review, like a checkpoint restore.
    useApprovalsStore.getState().select(result.value.approvalId)
    useNavigationStore.getState().show('approvals')
    return null
  }
}))

// Saved for a reload of this tab, at most once per short pause in typing.
useReviewStore.subscribe((state, previous) => {
  if (state.drafts !== previous.drafts || state.saved !== previous.saved)
    saveReviews(() => ({ ...state.saved, ...useReviewStore.getState().drafts }))
})
