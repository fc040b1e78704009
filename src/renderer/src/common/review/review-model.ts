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
  /**
   * asking[i]: the user typed inside hunk i after rejecting it, so which wins is theirs to say.
   * Until they answer, the hunk counts as rejected (as the editor shows it) and nothing is sent.
   */
  asking: boolean[]
  /**
   * The parts of the original (line spans) whose change the user rejected. Kept apart from the
   * hunks because a hunk can vanish while the user types (a line typed back to the original).
   */
  rejectedSpans: Span[]
}

/** Inclusive original-line span; an insertion sits between two lines (x.5). */
type Span = [number, number]

export type ChangesetReview = Record<string, FileReview>

/** Everything accepted, nothing edited, except what comes with a conflict. */
export function initialReview(changes: readonly ChangeView[]): ChangesetReview {
  const review: ChangesetReview = {}
  for (const change of changes) {
    review[change.id] = {
      accepted: change.hunks.map(() => true),
      edited: null,
      hunks: change.hunks,
      asking: change.hunks.map(() => false),
      rejectedSpans: []
    }
  }
  // A proposal that comes with a conflict (a restore over a file changed since) starts unticked.
  let result = review
  for (const change of changes)
    if (change.status === 'proposed' && change.conflict) result = setFile(result, change.id, false)
  return result
}

/**
 * Whether a review kept for an approval still describes these changes (one entry per file, one
 * decision per hunk), so a review restored after a remount or a reload never answers other hunks.
 */
export function reviewFits(review: ChangesetReview, changes: readonly ChangeView[]): boolean {
  if (Object.keys(review).length !== changes.length) return false
  return changes.every((change) => {
    const file = review[change.id]
    return Boolean(file) && file.accepted.length === file.hunks.length && file.asking.length === file.hunks.length
  })
}

/**
 * A review saved across a reload, read back as untrusted data: the hunks are recomputed from the
 * saved text (or taken from the proposal), and the saved decisions must answer exactly those.
 */
export function restoreReview(changes: readonly ChangeView[], saved: unknown): ChangesetReview | null {
  if (typeof saved !== 'object' || saved === null) return null
  const review: ChangesetReview = {}
  for (const change of changes) {
    const file = (saved as Record<string, unknown>)[change.id]
    if (!isSavedFile(file)) return null
    const hunks = file.edited === null ? change.hunks : computeHunks(change.original ?? '', file.edited)
    if (file.accepted.length !== hunks.length || file.asking.length !== hunks.length) return null
    review[change.id] = {
      accepted: file.accepted,
      asking: file.asking,
      edited: file.edited,
      hunks,
      rejectedSpans: file.rejectedSpans
    }
  }
  return Object.keys(saved).length === changes.length ? review : null
}

function isSavedFile(value: unknown): value is Omit<FileReview, 'hunks'> {
  if (typeof value !== 'object' || value === null) return false
  const file = value as Record<string, unknown>
  const booleans = (list: unknown): boolean => Array.isArray(list) && list.every((item) => typeof item === 'boolean')
  const spans =
    Array.isArray(file.rejectedSpans) &&
    file.rejectedSpans.every(
      (span) =>
        Array.isArray(span) && span.length === 2 && span.every((n) => typeof n === 'number' && Number.isFinite(n))
    )
  return (
    booleans(file.accepted) &&
    booleans(file.asking) &&
    (file.edited === null || typeof file.edited === 'string') &&
    spans
  )
}

/** Deciding a hunk answers its question too. */
export function setHunk(review: ChangesetReview, changeId: string, index: number, accepted: boolean): ChangesetReview {
  const file = review[changeId]
  if (!file || index < 0 || index >= file.accepted.length) return review
  const next = file.accepted.slice()
  next[index] = accepted
  const asking = file.asking.slice()
  asking[index] = false
  const rejectedSpans = withSpans(file.rejectedSpans, [file.hunks[index]], accepted)
  return { ...review, [changeId]: { ...file, accepted: next, asking, rejectedSpans } }
}

export function setFile(review: ChangesetReview, changeId: string, accepted: boolean): ChangesetReview {
  const file = review[changeId]
  if (!file) return review
  const rejectedSpans = withSpans(file.rejectedSpans, file.hunks, accepted)
  return {
    ...review,
    [changeId]: {
      ...file,
      accepted: file.accepted.map(() => accepted),
      asking: file.asking.map(() => false),
      rejectedSpans
    }
  }
}

/** Accepting drops the rejected spans the hunks touch; rejecting adds the hunks' spans. */
function withSpans(spans: readonly Span[], hunks: readonly HunkView[], accepted: boolean): Span[] {
  if (!accepted) return [...spans, ...hunks.map(spanOf)]
  return spans.filter((span) => !hunks.some((hunk) => overlaps(span, spanOf(hunk))))
}

/**
 * The user typed in the proposed side: hunks are recomputed against the original and keep the
 * decisions already made (see `carryDecisions`). Typing back to the model's text drops the edit.
 */
export function setEdited(review: ChangesetReview, change: ChangeView, text: string): ChangesetReview {
  const previous = review[change.id]
  const backToProposal = text === (change.proposed ?? '')
  const hunks: HunkView[] = backToProposal ? change.hunks : computeHunks(change.original ?? '', text)
  const decisions = previous
    ? carryDecisions(previous, hunks)
    : { accepted: hunks.map(() => true), asking: hunks.map(() => false) }
  const rejectedSpans = previous?.rejectedSpans ?? []
  return { ...review, [change.id]: { ...decisions, edited: backToProposal ? null : text, hunks, rejectedSpans } }
}

/**
 * Maps the decisions made on the previous hunks onto hunks recomputed after an edit. Both sets are
 * diffs from the same original, so they are matched on the original's lines: an unchanged hunk keeps
 * its decision; a hunk that touches a rejected part of the original asks which wins; any other is
 * the user's own text, accepted.
 */
export function carryDecisions(
  previous: FileReview,
  hunks: readonly HunkView[]
): Pick<FileReview, 'accepted' | 'asking'> {
  const accepted: boolean[] = []
  const asking: boolean[] = []
  for (const hunk of hunks) {
    const same = previous.hunks.findIndex((old) => sameHunk(old, hunk))
    if (same >= 0) {
      accepted.push(previous.accepted[same] ?? true)
      asking.push(previous.asking[same] ?? false)
      continue
    }
    const touchesRejected = previous.rejectedSpans.some((span) => overlaps(span, spanOf(hunk)))
    accepted.push(!touchesRejected)
    asking.push(touchesRejected)
  }
  return { accepted, asking }
}

const sameHunk = (a: HunkView, b: HunkView): boolean =>
  a.oldStart === b.oldStart &&
  a.oldLines === b.oldLines &&
  a.lines.length === b.lines.length &&
  a.lines.every((line, n) => line === b.lines[n])

const spanOf = (hunk: HunkView): Span =>
  hunk.oldLines === 0 ? [hunk.oldStart + 0.5, hunk.oldStart + 0.5] : [hunk.oldStart, hunk.oldStart + hunk.oldLines - 1]

const overlaps = ([aStart, aEnd]: Span, [bStart, bEnd]: Span): boolean => aStart <= bEnd && bStart <= aEnd

/** The 1-based numbers of hunks still waiting for the user to say which wins, per file. */
export function openQuestions(review: ChangesetReview): number[] {
  return Object.values(review).flatMap((file) => file.asking.flatMap((ask, n) => (ask ? [n + 1] : [])))
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
      selected.size === file.hunks.length
        ? file.edited
        : applySelectedHunks(change.original ?? '', file.hunks, selected)
    return { changeId: change.id, editedContent: content }
  }
  if (file.accepted.every(Boolean)) return { changeId: change.id }
  return { changeId: change.id, acceptedHunks: file.accepted.flatMap((ok, n) => (ok ? [change.hunks[n].id] : [])) }
}

/**
 * The answer to an edit approval: approve with per-file decisions when any hunk is kept, otherwise a
 * rejection (with the user's reason for the model). Approving the whole turn is an approval even
 * when every hunk is rejected: this edit writes nothing and the later calls of the turn run.
 */
export function buildEditDecision(
  approvalId: string,
  changes: readonly ChangeView[],
  review: ChangesetReview,
  reason?: string,
  scope: 'call' | 'turn' = 'call'
): ApprovalDecision {
  const anyAccepted = changes.some((change) => fileAccepted(review[change.id]))
  const trimmed = reason?.trim() || undefined
  if (!anyAccepted && scope === 'call') return { approvalId, outcome: 'reject', scope: 'call', reason: trimmed }
  return {
    approvalId,
    outcome: 'approve',
    scope,
    reason: trimmed,
    changes: changes.map((change) =>
      fileAccepted(review[change.id])
        ? changeDecision(change, review[change.id])
        : { changeId: change.id, acceptedHunks: [] }
    )
  }
}

/** Why an edit cannot be sent yet: hunks whose question (your edit or the original?) is open. */
export function unansweredMessage(hunks: readonly number[]): string {
  return `First say which wins in ${hunks.map((n) => `hunk ${n}`).join(', ')}: your edit or the original lines.`
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
