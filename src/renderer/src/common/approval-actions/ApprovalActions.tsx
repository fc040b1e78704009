import { useApprovalsStore } from '../approvals/approvals-store'
import { Icon } from '../../components/icons'
import './approvals.css'
import { FormError } from '../../components/FormError'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { ApprovalDecision, ApprovalItem } from '../../../../shared/contract/approvals'
import { useClient } from '../../client/client-context'
import { LazyChangesetReview } from '../review/LazyChangesetReview'
import { countAccepted } from '../review/review-model'
import { reviewedDecision } from '../review/review-store'
import { useReviewDraft } from '../review/use-review-draft'
import { hasLaterCallsInTurn, isLoopPause, isRiskyAsk, whyAsked } from '../approvals/approval-model'
import { ruleWidenings, singleCommandRule } from '../../../../shared/policy/widen-rule'

export type PendingAction = 'accept' | 'reject' | 'reject-turn' | 'always' | null

interface ApprovalActionsProps {
  item: ApprovalItem
  /** Asked for by a keyboard shortcut in the queue (a on an edit, r, R). */
  requested?: PendingAction
  onRequestedHandled?: () => void
  /** Shows the diff review inline for edit items (the approval *is* the review). */
  showReview: boolean
  /**
   * After the core took the answer: where the keyboard goes next (the buttons leave with the item);
   * `from` is where the focus was when the user answered.
   */
  onDecided?: (from: Element | null) => void
  /** The card already shows a risky ask's reason first (the queue): not repeated here. */
  riskShown?: boolean
}

/** Approve, reject with a reason, the whole turn, or "always allow in this mode" — for one item. */
export function ApprovalActions(props: ApprovalActionsProps): ReactNode {
  const client = useClient()
  const { item } = props
  const [pending, setPending] = useState<PendingAction>(null)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [acceptRequest, setAcceptRequest] = useState(0)
  const singleRule = singleCommandRule(props.item.suggestedRule?.rule)
  const [widenTo, setWidenTo] = useState<string | undefined>(undefined)
  const reasonField = useRef<HTMLTextAreaElement>(null)
  const actions = useRef<HTMLDivElement>(null)
  // The button that opened the reject form or the rule preview: "Back" returns the focus to it.
  const [opener, setOpener] = useState<string | null>(null)
  const open = (next: Exclude<PendingAction, null>, button: HTMLElement | null): void => {
    setOpener(button?.dataset.action ?? next)
    setPending(next)
  }
  const back = (): void => setPending(null)

  // A paused loop (cost or request cap, repetition, mistakes) is asked whether to go on; stopping needs no reason.
  const isPause = isLoopPause(item)
  const stop = (): Promise<void> => send({ approvalId: item.id, outcome: 'reject', scope: 'call' })

  const reviewed = item.kind === 'edit' && (item.changes?.length ?? 0) > 0 && props.showReview
  useEffect(() => {
    if (props.requested === 'accept') setAcceptRequest((count) => count + 1)
    else if (props.requested && isPause) void stop()
    // A review has its own reason box and Reject: `r` goes there rather than opening a second pair.
    else if (props.requested === 'reject' && reviewed)
      actions.current?.querySelector<HTMLTextAreaElement>('.changeset-actions textarea')?.focus()
    else if (props.requested) open(props.requested, null)
    if (props.requested) props.onRequestedHandled?.()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- acts once per keyboard request, not on every render's new `stop`
  }, [props.requested, props.onRequestedHandled])

  useEffect(() => {
    if (pending === 'reject' || pending === 'reject-turn') reasonField.current?.focus()
    else if (pending === 'always') actions.current?.querySelector<HTMLElement>('[data-action="save-rule"]')?.focus()
    else if (pending === null && opener)
      actions.current?.querySelector<HTMLElement>(`[data-action="${opener}"]`)?.focus()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- focus moves when the pending step changes, not when the opener is noted
  }, [pending])

  const send = async (decision: ApprovalDecision): Promise<void> => {
    const from = document.activeElement
    setBusy(true)
    setError(null)
    try {
      await useApprovalsStore.getState().decide(client, decision)
      props.onDecided?.(from)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }
  const base = { approvalId: item.id }
  // The turn-wide answers only when later calls of the same message wait behind this one.
  const isTurn = !isPause && hasLaterCallsInTurn(item)
  const isEdit = item.kind === 'edit' && (item.changes?.length ?? 0) > 0
  // A sandboxed command's connection: allow once / always in this mode / deny.
  const isNetwork = item.kind === 'network'
  // An edit answered from outside its review (folded, or the whole turn) is answered as reviewed.
  const [review] = useReviewDraft(isEdit ? item.id : undefined, item.changes ?? [])
  const reviewCounts = countAccepted(review)
  const sendReviewed = (scope: 'call' | 'turn'): void => {
    try {
      void send(reviewedDecision(item.id, item.changes ?? [], scope))
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }

  // A dangerous ask looks dangerous: its reason first, and no filled primary Approve to hit by habit.
  const risky = isRiskyAsk(item)
  return (
    <div className="approval-actions" ref={actions}>
      {risky && !props.riskShown && <RiskNote item={item} />}
      {isEdit && props.showReview && (
        <LazyChangesetReview
          key={item.id}
          changes={item.changes!}
          approvalId={item.id}
          busy={busy}
          onDecide={send}
          acceptRequest={acceptRequest}
        />
      )}
      {pending === null && item.kind === 'mistake-limit' && (
        <label className="guidance">
          Guidance for the model (optional; it goes along when you continue)
          <textarea
            value={reason}
            rows={2}
            placeholder="e.g. break the task into smaller steps"
            onChange={(event) => setReason(event.target.value)}
          />
        </label>
      )}
      {pending === null && (
        <div className="row approval-buttons">
          {!isEdit && (
            <button
              type="button"
              className={risky ? 'risky-approve' : 'primary'}
              disabled={busy}
              onClick={() =>
                void send({ ...base, outcome: 'approve', scope: 'call', reason: guidanceOf(item, reason) })
              }
            >
              {!risky && !isPause && <Icon name="check" />}
              {isPause ? 'Continue' : isNetwork ? 'Allow once' : 'Approve'}
            </button>
          )}
          {isEdit && !props.showReview && (
            <button type="button" className="primary" disabled={busy} onClick={() => sendReviewed('call')}>
              <Icon name="check" />
              {reviewCounts.accepted === reviewCounts.total ? 'Accept all changes' : 'Accept selected hunks'}
            </button>
          )}
          {isPause ? (
            <button type="button" className="danger" disabled={busy} onClick={() => void stop()}>
              Stop the task
            </button>
          ) : (
            !(isEdit && props.showReview) && (
              <button
                type="button"
                className="danger"
                data-action="reject"
                disabled={busy}
                onClick={(event) => open('reject', event.currentTarget)}
              >
                <Icon name="x" />
                {isNetwork ? 'Deny…' : 'Reject…'}
              </button>
            )
          )}
          {isTurn && (
            <>
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  isEdit ? sendReviewed('turn') : void send({ ...base, outcome: 'approve', scope: 'turn' })
                }
              >
                Approve whole turn
              </button>
              <button
                type="button"
                className="danger"
                data-action="reject-turn"
                disabled={busy}
                onClick={(event) => open('reject-turn', event.currentTarget)}
              >
                Reject whole turn…
              </button>
            </>
          )}
          {item.suggestedRule && (
            <button
              type="button"
              data-action="always"
              disabled={busy}
              onClick={(event) => open('always', event.currentTarget)}
            >
              {item.suggestedRule.savedIn
                ? 'Always allow this tool…'
                : isNetwork
                  ? 'Always in this mode…'
                  : 'Always allow in this mode…'}
            </button>
          )}
        </div>
      )}
      {(pending === 'reject' || pending === 'reject-turn') && (
        <form
          className="reject-form"
          onSubmit={(event) => {
            event.preventDefault()
            void send({
              ...base,
              outcome: 'reject',
              scope: pending === 'reject-turn' ? 'turn' : 'call',
              reason: reason.trim() || undefined
            })
          }}
        >
          <label>
            Why? The reason goes to the model (optional)
            <textarea
              ref={reasonField}
              value={reason}
              rows={2}
              onChange={(event) => setReason(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') back()
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault()
                  event.currentTarget.form?.requestSubmit()
                }
              }}
            />
          </label>
          <div className="row">
            <button type="submit" className="danger" disabled={busy}>
              {pending === 'reject-turn' ? 'Reject the turn' : 'Reject'}
            </button>
            <button type="button" onClick={back}>
              Back
            </button>
          </div>
        </form>
      )}
      {pending === 'always' && item.suggestedRule && (
        <div className="always-allow" role="group" aria-label="Always allow">
          {item.suggestedRule.savedIn ? (
            <p>
              This entry will be saved to <code>{item.suggestedRule.savedIn}</code>:
            </p>
          ) : (
            <p>
              This rule will be saved to the <strong>{item.mode}</strong> mode:
            </p>
          )}
          {singleRule && ruleWidenings(singleRule).length > 1 ? (
            <fieldset className="widen-rule">
              <legend>Rule to save (widen it to a prefix if you like)</legend>
              {ruleWidenings(singleRule).map((rule) => (
                <label key={rule} className="inline">
                  <input
                    type="radio"
                    name={`widen-${item.id}`}
                    checked={(widenTo ?? singleRule) === rule}
                    onChange={() => setWidenTo(rule === singleRule ? undefined : rule)}
                  />
                  <code>{rule}</code>
                </label>
              ))}
            </fieldset>
          ) : (
            <p className="proposed-rule">{item.suggestedRule.label}</p>
          )}
          <div className="row">
            <button
              type="button"
              className="primary"
              data-action="save-rule"
              disabled={busy}
              onClick={() =>
                void send({
                  ...base,
                  outcome: 'approve',
                  scope: 'call',
                  alwaysAllow: item.suggestedRule!.rule,
                  widenTo
                })
              }
            >
              Save rule and approve
            </button>
            <button type="button" onClick={back}>
              Back
            </button>
          </div>
        </div>
      )}
      <FormError message={error} />
    </div>
  )
}

/** Only the mistake-limit pause takes guidance with "Continue"; other approvals send no text. */
const guidanceOf = (item: ApprovalItem, text: string): string | undefined =>
  item.kind === 'mistake-limit' ? text.trim() || undefined : undefined

/** The reason a risky command asks, shown before anything else of the approval. */
export function RiskNote({ item }: { item: ApprovalItem }): ReactNode {
  return (
    <p className="approval-risk" title={item.rule ? `Policy rule: ${item.rule}` : undefined}>
      <strong>Risky command: </strong>
      {whyAsked(item) ?? item.reason}
    </p>
  )
}
