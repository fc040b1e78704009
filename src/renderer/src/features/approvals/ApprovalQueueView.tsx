import { FormError } from '../../components/FormError'
import { ArgumentList } from '../../common/approval-actions/ArgumentList'
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import type { ApprovalItem } from '../../../../shared/contract/approvals'
import { useClient } from '../../client/client-context'
import { useNavigationStore } from '../../navigation-store'
import { useChatStore } from '../../common/chat/chat-store'
import { ApprovalActions, RiskNote, type PendingAction } from '../../common/approval-actions/ApprovalActions'
import { BrowserPageField } from '../../common/approval-actions/BrowserPageField'
import {
  browserPageOf,
  groupByTask,
  hasLaterCallsInTurn,
  isLoopPause,
  isRiskyAsk,
  keyArguments,
  KIND_LABELS,
  shortcutHint,
  whyAsked
} from '../../common/approvals/approval-model'
import { useApprovalsStore } from '../../common/approvals/approvals-store'
import { reviewedDecision } from '../../common/review/review-store'
import { askTitle } from '../../common/chat/tool-words'
import { ToolHeading } from '../../common/chat/ToolHeading'
import '../../common/approval-actions/approvals.css'

/**
 * Every pending item across tasks in one list, answered with the mouse or the keyboard. `branchOf`
 * names the worktree branch of a task that runs isolated (the app passes it; undefined: the open folder).
 */
export function ApprovalQueueView({ branchOf }: { branchOf?: (taskId: string) => string | undefined }): ReactNode {
  const client = useClient()
  const items = useApprovalsStore((state) => state.items)
  const selectedId = useApprovalsStore((state) => state.selectedId)
  const [requested, setRequested] = useState<PendingAction>(null)
  const [error, setError] = useState<string | null>(null)
  const cards = useRef(new Map<string, HTMLElement>())
  const selected = items.find((item) => item.id === selectedId) ?? items[0]

  // Keep keyboard focus on the selected card so the focus ring shows where j/k went.
  const focusSelected = useCallback(() => {
    const id = useApprovalsStore.getState().selectedId
    if (id) cards.current.get(id)?.focus()
  }, [])

  useEffect(() => {
    if (!useApprovalsStore.getState().selectedId && items.length > 0) useApprovalsStore.getState().select(items[0].id)
  }, [items])

  // An answered item leaves the list and takes the focus with it: give it to the next item, and
  // after the last one back to where the user came from (the Approvals entry of the navigation).
  useEffect(() => {
    const active = document.activeElement
    if (active && active !== document.body && active.isConnected) return
    if (selected) focusSelected()
    else document.querySelector<HTMLElement>('nav.app-nav [aria-current="page"]')?.focus()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new item (its id), not a new object for the same item, moves the focus
  }, [selected?.id, focusSelected])

  // Opened from the navigation: put the keyboard on the queue so j/k/a/r work at once.
  useEffect(() => {
    const active = document.activeElement
    if (!active || active === document.body || active.closest('nav')) requestAnimationFrame(focusSelected)
  }, [focusSelected])

  const quick = async (item: ApprovalItem, outcome: 'approve', scope: 'call' | 'turn'): Promise<void> => {
    setError(null)
    try {
      // An edit is approved as its review stands, never as the bare proposal.
      const decision =
        item.kind === 'edit' && item.changes?.length
          ? reviewedDecision(item.id, item.changes, scope)
          : { approvalId: item.id, outcome, scope }
      await useApprovalsStore.getState().decide(client, decision)
      requestAnimationFrame(focusSelected)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    const target = event.target as HTMLElement
    if (target.closest('textarea, input, select, [contenteditable="true"], .monaco-editor')) return
    if (event.ctrlKey || event.metaKey || event.altKey || !selected) return
    const key = event.key
    if (key === 'j' || key === 'ArrowDown' || key === 'k' || key === 'ArrowUp') {
      useApprovalsStore.getState().move(key === 'j' || key === 'ArrowDown' ? 1 : -1)
      requestAnimationFrame(focusSelected)
    } else if (key === 'a') {
      // An edit is accepted as its review stands (hunks rejected there stay rejected).
      if (selected.kind === 'edit' && selected.changes?.length) setRequested('accept')
      else void quick(selected, 'approve', 'call')
    } else if (key === 'A' && !isLoopPause(selected) && hasLaterCallsInTurn(selected)) {
      void quick(selected, 'approve', 'turn')
    } else if (key === 'r') {
      setRequested('reject')
    } else if (key === 'R' && !isLoopPause(selected) && hasLaterCallsInTurn(selected)) {
      setRequested('reject-turn')
    } else return
    event.preventDefault()
  }

  const groups = groupByTask(items)
  return (
    <section className="approval-queue" aria-label="Approvals" onKeyDown={onKeyDown}>
      <header className="approval-queue-head">
        <h1>Approvals</h1>
        <p className="note" aria-live="polite">
          {items.length === 0 || !selected
            ? 'Nothing is waiting for you.'
            : `${items.length} waiting · ${shortcutHint(selected)}`}
        </p>
      </header>
      <FormError message={error} />
      {groups.map((group) => (
        <section key={group.taskId} className="approval-group" aria-label={`Task: ${group.taskTitle}`}>
          <h2>
            {group.taskTitle}
            {branchOf?.(group.taskId) && (
              <span className="note approval-branch"> · worktree {branchOf(group.taskId)}</span>
            )}
          </h2>
          <ol className="approval-items">
            {group.items.map((item) => (
              <li key={item.id}>
                <ApprovalCard
                  item={item}
                  selected={item.id === selected?.id}
                  cardRef={(element) => {
                    if (element) cards.current.set(item.id, element)
                    else cards.current.delete(item.id)
                  }}
                  requested={item.id === selected?.id ? requested : null}
                  onRequestedHandled={() => setRequested(null)}
                />
              </li>
            ))}
          </ol>
        </section>
      ))}
    </section>
  )
}

/** A call is titled in the chat card's words ("Write `src/a.ts`"), the raw tool name on hover; a pause by its kind. */
function ApprovalTitle({ item }: { item: ApprovalItem }): ReactNode {
  if (item.tool && (item.kind === 'tool' || item.kind === 'edit'))
    return <ToolHeading title={askTitle(item.tool, item.args)} toolName={item.tool} />
  return <span className="approval-kind">{KIND_LABELS[item.kind]}</span>
}

function ApprovalCard(props: {
  item: ApprovalItem
  selected: boolean
  cardRef: (element: HTMLElement | null) => void
  requested: PendingAction
  onRequestedHandled: () => void
}): ReactNode {
  const { item } = props
  const page = browserPageOf(item)
  // A launch's page is shown with its origin below; the argument list would only repeat it.
  const args = keyArguments(item.args).filter((arg) => !(page && arg.name === 'url'))
  const risky = isRiskyAsk(item)
  const why = risky ? null : whyAsked(item)
  return (
    <article
      ref={props.cardRef}
      className="approval-card"
      tabIndex={props.selected ? 0 : -1}
      aria-current={props.selected ? 'true' : undefined}
      aria-label={`${KIND_LABELS[item.kind]}: ${item.summary}`}
      onFocus={() => !props.selected && useApprovalsStore.getState().select(item.id)}
      onClick={() => !props.selected && useApprovalsStore.getState().select(item.id)}
    >
      <div className="approval-card-head">
        <ApprovalTitle item={item} />
        <span className="approval-mode" title="Mode">
          {item.mode} mode
        </span>
        <OpenInChat taskId={item.taskId} />
      </div>
      {risky && <RiskNote item={item} />}
      <p className="approval-summary">{item.summary}</p>
      {page && <BrowserPageField page={page} className="approval-args" />}
      {args.length > 0 && <ArgumentList args={args} className="approval-args" />}
      {why && (
        <p className="approval-why" title={item.rule ? `Policy rule: ${item.rule}` : undefined}>
          <span className="note">Why you were asked: </span>
          {why}
        </p>
      )}
      {item.args !== undefined && (
        <details>
          <summary>All arguments</summary>
          <pre>{JSON.stringify(item.args, null, 2)}</pre>
        </details>
      )}
      {props.selected ? (
        <ApprovalActions
          item={item}
          showReview
          riskShown={risky}
          requested={props.requested}
          onRequestedHandled={props.onRequestedHandled}
        />
      ) : (
        item.kind === 'edit' && (
          <p className="note">{item.changes?.length ?? 0} file(s) to review — select to review.</p>
        )
      )}
    </article>
  )
}

function OpenInChat({ taskId }: { taskId: string }): ReactNode {
  const client = useClient()
  return (
    <button
      type="button"
      className="link"
      onClick={(event) => {
        event.stopPropagation()
        void useChatStore
          .getState()
          .openTask(client, taskId)
          .then(() => useNavigationStore.getState().show('chat'))
      }}
    >
      Open in chat
    </button>
  )
}
