import { FormError } from '../../components/FormError'
import { Icon } from '../../components/icons'
import { countedOf } from '../../common/plural'
import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import type { ApprovalDecision, ChangeView, HunkView } from '../../../../shared/contract/approvals'
import { displayCounts, displayRows } from '../../../../shared/diff/hunks'
import {
  buildEditDecision,
  conflictOf,
  countAccepted,
  fileAccepted,
  hunkSides,
  openQuestions,
  setEdited,
  setFile,
  setHunk,
  unansweredMessage
} from './review-model'
import { useApprovalsStore } from '../approvals/approvals-store'
import { useReviewStore } from './review-store'
import { useReviewDraft } from './use-review-draft'
import { useDrift } from './use-drift'
import { useNarrowWindow } from './use-narrow-window'
import './review.css'

const MonacoDiff = lazy(() => import('../../monaco/MonacoDiff'))

export interface ChangesetReviewProps {
  changes: ChangeView[]
  /** Present for a pending edit approval: the review answers it. Absent: a read-only look at past changes. */
  approvalId?: string
  onDecide?: (decision: ApprovalDecision) => Promise<void>
  busy?: boolean
  /** Bumped by the queue's `a` key: accept as currently decided, as the Accept button would. */
  acceptRequest?: number
}

/**
 * One turn's edits reviewed as a changeset: a file list, per-hunk accept/reject, the proposed side
 * editable in Monaco, then one decision for the whole set.
 */
export default function ChangesetReview(props: ChangesetReviewProps): ReactNode {
  const { changes, approvalId } = props
  const [review, setReview] = useReviewDraft(approvalId, changes)
  const [selectedId, setSelectedId] = useState(changes[0]?.id ?? null)
  // Inline when the window is narrow, unless the user chose; the file list folds away the same way.
  const narrow = useNarrowWindow()
  const [chosenSideBySide, setChosenSideBySide] = useState<boolean | null>(null)
  const sideBySide = chosenSideBySide ?? !narrow
  const [chosenFilesShown, setChosenFilesShown] = useState<boolean | null>(null)
  const filesShown = chosenFilesShown ?? !(narrow && changes.length === 1)
  const filesId = useId()
  const [reveal, setReveal] = useState<{ line: number; request: number } | null>(null)
  const revealLine = (line: number): void => setReveal((previous) => ({ line, request: (previous?.request ?? 0) + 1 }))
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const selected = changes.find((change) => change.id === selectedId) ?? changes[0]
  const interactive = Boolean(approvalId && props.onDecide)
  const drift = useDrift(
    changes.map((change) => change.id),
    interactive
  )
  const counts = countAccepted(review)
  const questions = openQuestions(review)

  const decide = async (outcome: 'accept' | 'reject'): Promise<void> => {
    if (!approvalId || !props.onDecide) return
    setError(null)
    if (outcome === 'accept' && questions.length > 0) {
      setError(unansweredMessage(questions))
      return
    }
    const decision =
      outcome === 'reject'
        ? ({ approvalId, outcome: 'reject', scope: 'call', reason: reason.trim() || undefined } as const)
        : buildEditDecision(approvalId, changes, review, reason)
    try {
      await props.onDecide(decision)
      // Answered: the review in progress is done with (it stays while the approval still waits).
      if (!useApprovalsStore.getState().items.some((item) => item.id === approvalId))
        useReviewStore.getState().dropDraft(approvalId)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }

  const decideRef = useRef(decide)
  decideRef.current = decide
  useEffect(() => {
    if (props.acceptRequest) void decideRef.current('accept')
  }, [props.acceptRequest])

  if (!selected) return <p className="note">No file changes.</p>
  const file = review[selected.id]
  return (
    <div
      className="changeset"
      aria-label="Changeset review"
      role="group"
      aria-keyshortcuts="n p"
      onKeyDown={(event) => moveByKey(event, file?.hunks ?? selected.hunks, revealLine)}
    >
      <div className="changeset-toolbar">
        <span>
          {changes.length} file{changes.length === 1 ? '' : 's'}
          {interactive && ` · ${countedOf(counts.accepted, counts.total, 'hunk')} accepted`}
        </span>
        <span className="changeset-view-buttons">
          <button
            type="button"
            aria-expanded={filesShown}
            aria-controls={filesId}
            onClick={() => setChosenFilesShown(!filesShown)}
          >
            {filesShown ? 'Hide files' : 'Show files'}
          </button>
          <button type="button" aria-pressed={!sideBySide} onClick={() => setChosenSideBySide(!sideBySide)}>
            {sideBySide ? 'Inline view' : 'Side by side'}
          </button>
        </span>
      </div>
      <div className="changeset-body">
        <ul className="changeset-files" aria-label="Changed files" id={filesId} hidden={!filesShown}>
          {changes.map((change) => (
            <li key={change.id}>
              <FileButton
                change={change}
                current={change.id === selected.id}
                skipped={interactive && !fileAccepted(review[change.id])}
                conflict={Boolean(conflictOf(change) || drift[change.id]?.conflict)}
                changedOnDisk={Boolean(drift[change.id] && !drift[change.id].conflict)}
                onSelect={() => setSelectedId(change.id)}
              />
            </li>
          ))}
        </ul>
        <div className="changeset-detail">
          <FileHeader change={selected} />
          {conflictOf(selected) && (
            <p className="conflict" role="alert">
              Conflict: {conflictOf(selected)}
            </p>
          )}
          {!conflictOf(selected) && drift[selected.id] && (
            <p className={drift[selected.id].conflict ? 'conflict' : 'drift'} role="alert">
              {drift[selected.id].conflict ? 'Conflict: ' : 'Changed on disk: '}
              {drift[selected.id].message}
            </p>
          )}
          <HunkList
            hunks={file?.hunks ?? selected.hunks}
            accepted={file?.accepted ?? []}
            asking={file?.asking ?? []}
            interactive={interactive}
            edited={file?.edited !== null && file?.edited !== undefined}
            onToggle={(index, value) => setReview((state) => setHunk(state, selected.id, index, value))}
            onReveal={revealLine}
            onAll={(value) => setReview((state) => setFile(state, selected.id, value))}
          />
          <Suspense fallback={<p className="note">Loading the diff editor…</p>}>
            <MonacoDiff
              key={selected.id}
              path={selected.newPath ?? selected.path}
              original={selected.original ?? ''}
              modified={file?.edited ?? selected.proposed ?? ''}
              sideBySide={sideBySide}
              readOnly={!interactive || selected.proposed === null}
              revealLine={reveal?.line ?? null}
              revealRequest={reveal?.request}
              rejectedRanges={file ? rejectedRanges(file.hunks, file.accepted) : []}
              onModifiedChange={
                interactive ? (text) => setReview((state) => setEdited(state, selected, text)) : undefined
              }
            />
          </Suspense>
        </div>
      </div>
      {interactive && (
        <div className="changeset-actions">
          <label>
            Reason or guidance for the model (optional)
            <textarea value={reason} onChange={(event) => setReason(event.target.value)} rows={2} />
          </label>
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={props.busy || questions.length > 0}
              title={questions.length > 0 ? unansweredMessage(questions) : undefined}
              onClick={() => void decide('accept')}
            >
              <Icon name="check" />
              {counts.accepted === counts.total ? 'Accept all changes' : 'Accept selected hunks'}
            </button>
            <button type="button" className="danger" disabled={props.busy} onClick={() => void decide('reject')}>
              <Icon name="x" />
              Reject all changes
            </button>
          </div>
          <FormError message={error} />
        </div>
      )}
    </div>
  )
}

function FileHeader({ change }: { change: ChangeView }): ReactNode {
  return (
    <div className="file-header">
      <strong>{change.path}</strong>
      {change.newPath && <span> → {change.newPath}</span>}
      <span className="note">
        {' '}
        · {change.status}
        {change.auto ? ' (auto-approved)' : ''}
      </span>
    </div>
  )
}

function HunkList(props: {
  hunks: HunkView[]
  accepted: boolean[]
  asking: boolean[]
  interactive: boolean
  edited: boolean
  onToggle: (index: number, accepted: boolean) => void
  onReveal: (line: number) => void
  onAll: (accepted: boolean) => void
}): ReactNode {
  if (props.hunks.length === 0) return null
  return (
    <div className="hunks">
      {props.edited && <p className="note">You edited the proposed side: the hunks below are your version.</p>}
      <ol className="hunk-list" aria-label="Hunks">
        {props.hunks.map((hunk, index) => {
          const sides = hunkSides(hunk)
          const accepted = props.accepted[index] ?? true
          const asking = props.interactive && (props.asking[index] ?? false)
          const label = `hunk ${index + 1}`
          return (
            <li
              key={hunk.id}
              data-hunk={index}
              className={`hunk ${props.interactive ? (accepted ? 'hunk-accepted' : 'hunk-rejected') : ''}`}
            >
              <button
                type="button"
                className="link hunk-reveal"
                onClick={() => props.onReveal(Math.max(1, hunk.newStart))}
              >
                Hunk {index + 1} · lines {hunk.newStart}–{hunk.newStart + Math.max(0, displayCounts(hunk).newLines - 1)}{' '}
                · +{sides.added} −{sides.removed}
              </button>
              {props.interactive && (
                <span className="hunk-actions" role="group" aria-label={`Decision for ${label}`}>
                  <button
                    type="button"
                    className="hunk-accept"
                    aria-pressed={accepted}
                    aria-label={`Accept ${label}`}
                    onClick={() => props.onToggle(index, true)}
                  >
                    Accept
                  </button>
                  <button
                    type="button"
                    className="hunk-reject"
                    aria-pressed={!accepted}
                    aria-label={`Reject ${label}`}
                    onClick={() => props.onToggle(index, false)}
                  >
                    Reject
                  </button>
                </span>
              )}
              {asking && (
                <p className="hunk-question" role="alert">
                  You edited inside hunk {index + 1}, which you had rejected. Accept it to write your edit, or Reject it
                  to keep the original lines.
                </p>
              )}
            </li>
          )
        })}
      </ol>
      {props.interactive && props.hunks.length > 1 && (
        <div className="row">
          <button type="button" className="link" onClick={() => props.onAll(true)}>
            Accept every hunk of this file
          </button>
          <button type="button" className="link" onClick={() => props.onAll(false)}>
            Reject every hunk of this file
          </button>
        </div>
      )}
    </div>
  )
}

/** Modified-side lines added by rejected hunks (not their context), to mark them in the editor. */
function rejectedRanges(hunks: HunkView[], accepted: boolean[]): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = []
  hunks.forEach((hunk, index) => {
    if (accepted[index] !== false) return
    let line = hunk.newStart
    for (const row of displayRows(hunk)) {
      if (row.startsWith('-')) continue
      if (row.startsWith('+')) {
        const last = ranges[ranges.length - 1]
        if (last && last.end === line - 1) last.end = line
        else ranges.push({ start: line, end: line })
      }
      line++
    }
  })
  return ranges
}

interface FileButtonProps {
  change: ChangeView
  current: boolean
  skipped: boolean
  conflict: boolean
  changedOnDisk: boolean
  onSelect: () => void
}

/** A file of the changeset; its name is its visible text in order ("src/a.ts, modify, conflict"). */
function FileButton(props: FileButtonProps): ReactNode {
  const { change } = props
  const flags = [
    props.skipped && 'skipped',
    props.conflict && 'conflict',
    props.changedOnDisk && 'changed on disk'
  ].filter((flag): flag is string => Boolean(flag))
  return (
    <button
      type="button"
      className="changeset-file"
      aria-label={[change.path, change.operation, ...flags].join(', ')}
      aria-current={props.current ? 'true' : undefined}
      onClick={props.onSelect}
    >
      <span className="path">{change.path}</span>{' '}
      <span className={`op op-${change.operation}`}>{change.operation}</span>
      {flags.map((flag) => (
        <span key={flag} className={flag === 'conflict' ? 'conflict-flag' : 'note'}>
          {' '}
          {flag}
        </span>
      ))}
    </button>
  )
}

/**
 * n / p: the next or previous hunk of the file shown (its row takes the focus, the diff scrolls to it).
 * Only outside text fields and the editor, where the letters are typed; Esc leaves the editor first.
 */
function moveByKey(
  event: KeyboardEvent<HTMLElement>,
  hunks: readonly HunkView[],
  reveal: (line: number) => void
): void {
  if (event.key !== 'n' && event.key !== 'p') return
  if (event.ctrlKey || event.metaKey || event.altKey || hunks.length === 0) return
  const target = event.target as HTMLElement
  if (target.closest('textarea, input, select, [contenteditable="true"], .monaco-editor')) return
  const rows = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('.hunk-list > li[data-hunk]'))
  const current = rows.findIndex((row) => row.contains(target))
  const next =
    event.key === 'n'
      ? current < 0
        ? 0
        : Math.min(rows.length - 1, current + 1)
      : current < 0
        ? rows.length - 1
        : Math.max(0, current - 1)
  const row = rows[next]
  if (!row) return
  event.preventDefault()
  event.stopPropagation()
  // The decision buttons when there are some (the next thing to do), else the row's "show" button.
  ;(row.querySelector<HTMLElement>('.hunk-accept') ?? row.querySelector<HTMLElement>('.hunk-reveal'))?.focus()
  reveal(Math.max(1, hunks[next]?.newStart ?? 1))
}
