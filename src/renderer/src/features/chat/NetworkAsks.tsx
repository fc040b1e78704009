import { useEffect, useRef, type ReactNode } from 'react'
import { ApprovalActions } from '../../common/approval-actions/ApprovalActions'
import { useApprovalsStore } from '../../common/approvals/approvals-store'
import type { NetworkAskState } from '../../common/chat/task-view'

/**
 * The connections a sandboxed command asked about, on its tool card: host, port and the queue's
 * own buttons (allow once / always in this mode / deny) while it waits — the same item as in the
 * Approvals view, so an answer in either place settles both — then how it ended.
 */
export function NetworkAsks({ asks }: { asks: readonly NetworkAskState[] }): ReactNode {
  return (
    <ul className="network-asks" aria-label="Network requests from the sandbox">
      {asks.map((ask) => (
        <NetworkAsk key={ask.approvalId} ask={ask} />
      ))}
    </ul>
  )
}

function NetworkAsk({ ask }: { ask: NetworkAskState }): ReactNode {
  const item = useApprovalsStore((state) => state.items.find((candidate) => candidate.id === ask.approvalId))
  const group = useRef<HTMLLIElement>(null)
  // Answered with these buttons: they go, so the focus goes to what replaces them (not the page).
  const answeredHere = useRef(false)
  const waiting = !ask.outcome && item !== undefined
  useEffect(() => {
    if (waiting || !answeredHere.current) return
    answeredHere.current = false
    const active = document.activeElement
    if (!active || active === document.body || !active.isConnected) group.current?.focus()
  }, [waiting])
  const target = ask.port ? `${ask.host}:${ask.port}` : ask.host
  return (
    <li
      ref={group}
      className={`network-ask ${ask.outcome ? `network-ask-${ask.outcome}` : 'network-ask-waiting'}`}
      tabIndex={-1}
      aria-label={`Network request to ${target}`}
      onClickCapture={() => (answeredHere.current = true)}
      onKeyDownCapture={() => (answeredHere.current = true)}
    >
      <p className="network-ask-target">
        <strong>Network request from the sandbox:</strong> host <code>{ask.host}</code>
        {ask.port !== undefined && (
          <>
            , port <code>{ask.port}</code>
          </>
        )}
      </p>
      {waiting && <ApprovalActions item={item} showReview={false} />}
      <p className="network-ask-outcome" aria-live="polite">
        {ask.text ?? (waiting ? null : NOT_WAITING)}
      </p>
    </li>
  )
}

/**
 * An ask with no end recorded and no item in the queue: the core records every end as soon as the
 * item goes, so this one was left open when Modus stopped.
 */
const NOT_WAITING = 'Not answered: Modus stopped before an answer.'
