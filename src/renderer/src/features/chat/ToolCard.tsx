import { ArgumentList } from '../../common/approval-actions/ArgumentList'
import { useState, type ReactNode } from 'react'
import { ApprovalActions } from '../../common/approval-actions/ApprovalActions'
import { BrowserPageField } from '../../common/approval-actions/BrowserPageField'
import { browserPageOf, keyArguments, KIND_LABELS } from '../../common/approvals/approval-model'
import { useApprovalsStore } from '../../common/approvals/approvals-store'
import { BrowserResult } from './BrowserResult'
import { CommandOutputView } from './CommandOutputView'
import { commandOutputOf } from './command-output'
import { NetworkAsks } from './NetworkAsks'
import { parsePartialJson } from './partial-json'
import { composerField, focusWhenReady } from '../../components/focus-after'
import { clipLine, toolTitle } from '../../common/chat/tool-words'
import { ToolHeading } from '../../common/chat/ToolHeading'
import {
  changeLabel,
  decisionLabel,
  phaseLabel,
  sentence,
  toolPhase,
  type ApprovalState,
  type TaskStatus,
  type ToolItem
} from '../../common/chat/task-view'

/** One tool call: what it is, how it was decided, and its result. */
export function ToolCard({ item, status }: { item: ToolItem; status: TaskStatus }): ReactNode {
  const phase = toolPhase(item, status)
  const decision = decisionLabel(item)
  // Arguments still streaming are read as far as they go; raw JSON is never shown.
  const raw = item.args !== undefined ? item.args : parsePartialJson(item.argsText)
  const args = keyArguments(raw, 3, 120)
  const title = toolTitle(item, phase, raw)
  const output = commandOutputOf(item)
  return (
    <div className="chat-row">
      <div className={`tool-card tool-${phase}`} role="group" aria-label={`Tool call ${item.name}`}>
        <div className="tool-head">
          <ToolHeading title={title} toolName={item.name} />
          <span className={`phase phase-${phase}`}>{phaseLabel(item, phase)}</span>
        </div>
        {args.length > 0 ? (
          <ArgumentList args={args} className="tool-args" />
        ) : (
          phase === 'streaming' && <p className="tool-args-partial note">Writing the arguments…</p>
        )}
        {decision && (
          <p className="tool-decision" title={decision.rule ? `Policy rule: ${decision.rule}` : undefined}>
            {decision.text}
          </p>
        )}
        {item.changes.length > 0 && (
          <ul className="tool-changes" aria-label="Files changed">
            {item.changes.map((change) => (
              <li key={change.changeId}>
                <span className="path">{change.path}</span> — {changeLabel(change, phase === 'cancelled')}
                {change.auto ? ' (auto-approved)' : ''}
                {change.detail && <span className="note"> {change.detail}</span>}
              </li>
            ))}
          </ul>
        )}
        {phase === 'waiting' && item.approval && <InlineApproval approvalId={item.approval.approvalId} />}
        {item.networkAsks && item.networkAsks.length > 0 && <NetworkAsks asks={item.networkAsks} />}
        {phase === 'running' && item.progress && <ToolProgress progress={item.progress} />}
        {output && <CommandOutputView output={output} />}
        {item.result && item.name === 'browser_action' && <BrowserResult result={item.result} />}
        {item.result && <ToolResult result={item.result} />}
      </div>
    </div>
  )
}

function ToolResult({ result }: { result: NonNullable<ToolItem['result']> }): ReactNode {
  const firstLine = clipLine(result.text, 160)
  return (
    <details className={`tool-result ${result.isError ? 'tool-error' : ''}`}>
      <summary>
        {result.isError ? 'Error: ' : 'Result: '}
        <span className="tool-result-preview">{firstLine}</span>
      </summary>
      <pre className="tool-result-text">{result.text}</pre>
      {result.images?.map((image, index) => (
        <img
          key={index}
          className="tool-result-image"
          alt={`Image ${index + 1} returned by the tool`}
          src={`data:${image.mediaType};base64,${image.dataBase64}`}
        />
      ))}
    </details>
  )
}

function ToolProgress({ progress }: { progress: NonNullable<ToolItem['progress']> }): ReactNode {
  const label = `${progress.progress}${progress.total ? ` of ${progress.total}` : ''}${progress.message ? ` — ${progress.message}` : ''}`
  return (
    <p className="tool-progress">
      {progress.total ? <progress max={progress.total} value={progress.progress} aria-label="Tool progress" /> : null}{' '}
      {label}
    </p>
  )
}

/** Approve or reject right from the chat; edits open the diff review in place. */
function InlineApproval({ approvalId }: { approvalId: string }): ReactNode {
  const item = useApprovalsStore((state) => state.items.find((candidate) => candidate.id === approvalId))
  // The approval of an edit is its diff review: open it right away, the user may fold it.
  const [reviewing, setReviewing] = useState(true)
  if (!item) return null
  const isEdit = item.kind === 'edit' && (item.changes?.length ?? 0) > 0
  const page = browserPageOf(item)
  return (
    <div className="inline-approval">
      {page && <BrowserPageField page={page} className="tool-args" />}
      {isEdit && (
        <button type="button" aria-expanded={reviewing} onClick={() => setReviewing((value) => !value)}>
          {reviewing
            ? 'Hide review'
            : `Review ${item.changes!.length} file change${item.changes!.length === 1 ? '' : 's'}`}
        </button>
      )}
      <ApprovalActions item={item} showReview={reviewing} onDecided={focusNextInChat} />
    </div>
  )
}

/** After an answer in the chat: the next call still waiting there, else the message field. */
function focusNextInChat(from: Element | null): void {
  focusWhenReady(
    () =>
      document.querySelector<HTMLElement>('.chat .inline-approval .approval-buttons button:not([disabled])') ??
      composerField(),
    from
  )
}

const PAUSE_ANSWERS: Record<NonNullable<ApprovalState['outcome']>, string> = {
  approved: 'You let the task continue.',
  rejected: 'You stopped the task here.',
  cancelled: 'The task was stopped before you answered.'
}

/** A paused loop (cost or request cap, repetition, mistake limit) asking whether to go on. */
export function ApprovalNotice({ approval }: { approval: ApprovalState }): ReactNode {
  const pending = !approval.outcome
  return (
    <div className="chat-row">
      <div className="tool-card approval-notice" role="group" aria-label={KIND_LABELS[approval.kind]}>
        <strong>{KIND_LABELS[approval.kind]}</strong>
        <p>{sentence(approval.summary)}</p>
        {approval.reason.trim() !== approval.summary.trim() && <p className="note">{sentence(approval.reason)}</p>}
        {pending ? (
          <InlineApproval approvalId={approval.approvalId} />
        ) : (
          <p className="note">
            {PAUSE_ANSWERS[approval.outcome!]}
            {approval.answer ? ` Guidance: ${approval.answer}` : ''}
          </p>
        )}
      </div>
    </div>
  )
}
