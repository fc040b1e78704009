import type { ApprovalDecision, ChangeDecision, ChangeView, HunkView } from '../../../../shared/contract/approvals'
import { applySelectedHunks, computeHunks, displayRows } from '../../../../shared/diff/hunks'

/** The user's choices on one file of a changeset. */
export interface FileReview {
  /** accepted[i] answers hunk i of `hunks` below. */
  accepted: boolean[]
  /** The proposed side as the user edited it; null = the model's text. */
  edited: string | null
  /** Hunks shown: the model's, or recomputed from the original to the edited text. */
  hunks: HunkView[]
}

export type ChangesetReview = Record<string, FileReview>

/** Everything accepted, nothing edited. */
export function initialReview(changes: readonly ChangeView[]): ChangesetReview {
  const review: ChangesetReview = {}
  for (const change of changes) {
    review[change.id] = { accepted: change.hunks.map(() => true), edited: null, hunks: change.hunks }
  }
  return review
}

export function setHunk(review: ChangesetReview, changeId: string, index: number, accepted: boolean): ChangesetReview {
  const file = review[changeId]
  if (!file || index < 0 || index >= file.accepted.length) return review
  const next = file.accepted.slice()
  next[index] = accepted
  return { ...review, [changeId]: { ...file, accepted: next } }
}

export function setFile(review: ChangesetReview, changeId: string, accepted: boolean): ChangesetReview {
  const file = review[changeId]
  if (!file) return review
  return { ...review, [changeId]: { ...file, accepted: file.accepted.map(() => accepted) } }
}

/**
 * The user typed in the proposed side: hunks are recomputed against the original, all accepted
 * (they are the user's own text now). Typing back to the model's text drops the edit.
 */
export function setEdited(review: ChangesetReview, change: ChangeView, text: string): ChangesetReview {
  if (text === (change.proposed ?? '')) {
    return { ...review, [change.id]: { accepted: change.hunks.map(() => true), edited: null, hunks: change.hunks } }
  }
  const hunks: HunkView[] = computeHunks(change.original ?? '', text)
  return { ...review, [change.id]: { accepted: hunks.map(() => true), edited: text, hunks } }
}

/** Whether anything of this file would be written. A file without hunks (a pure move) counts as one choice. */
export function fileAccepted(file: FileReview | undefined): boolean {
  if (!file) return false
  return file.accepted.length === 0 ? true : file.accepted.some(Boolean)
}

export function countAccepted(review: ChangesetReview): { accepted: number; total: number } {
  let accepted = 0
  let total = 0
  for (const file of Object.values(review)) {
    total += file.accepted.length
    accepted += file.accepted.filter(Boolean).length
  }
  return { accepted, total }
}

/** What to send for one file; an edited file is sent as its final text with the rejected hunks left out. */
export function changeDecision(change: ChangeView, file: FileReview): ChangeDecision {
  if (file.edited !== null) {
    const selected = new Set(file.hunks.filter((_, n) => file.accepted[n]).map((hunk) => hunk.id))
    const content =
      selected.size === file.hunks.length ? file.edited : applySelectedHunks(change.original ?? '', file.hunks, selected)
    return { changeId: change.id, editedContent: content }
  }
  if (file.accepted.every(Boolean)) return { changeId: change.id }
  return { changeId: change.id, acceptedHunks: file.accepted.flatMap((ok, n) => (ok ? [change.hunks[n].id] : [])) }
}

/**
 * The answer to an edit approval: approve with per-file decisions when any hunk is kept, otherwise a
 * rejection (with the user's reason for the model).
 */
export function buildEditDecision(
  approvalId: string,
  changes: readonly ChangeView[],
  review: ChangesetReview,
  reason?: string
): ApprovalDecision {
  const anyAccepted = changes.some((change) => fileAccepted(review[change.id]))
  const trimmed = reason?.trim() || undefined
  if (!anyAccepted) return { approvalId, outcome: 'reject', scope: 'call', reason: trimmed }
  return {
    approvalId,
    outcome: 'approve',
    scope: 'call',
    reason: trimmed,
    changes: changes.map((change) =>
      fileAccepted(review[change.id]) ? changeDecision(change, review[change.id]) : { changeId: change.id, acceptedHunks: [] }
    )
  }
}

/** Splits a hunk's unified lines into the two sides, for a text rendering without Monaco. */
export function hunkSides(hunk: HunkView): { removed: number; added: number } {
  let removed = 0
  let added = 0
  for (const line of displayRows(hunk)) {
    if (line.startsWith('-')) removed++
    else if (line.startsWith('+')) added++
  }
  return { removed, added }
}

/** Why a change could not be (or was not) written, when it is a conflict or a failure. */
export function conflictOf(change: ChangeView): string | null {
  if (change.conflict) return change.conflict
  return change.status === 'failed' ? 'The change could not be written.' : null
}
