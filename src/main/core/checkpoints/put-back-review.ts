import type { AgentEvent } from '../../../shared/agent/events'
import type { ChangeView } from '../../../shared/contract/approvals'
import type { ApprovalQueue } from '../approvals/approval-queue'
import type { EditPort } from '../ports/loop-ports'

export interface PutBackDeps {
  edits: Pick<EditPort, 'accept' | 'reject'>
  approvals: Pick<ApprovalQueue, 'ask'>
  /** Adds the chat row (and with it the note the model gets on its next turn). */
  record?: (taskId: string, event: AgentEvent) => Promise<void>
  /** After the review is answered: each file's final state (applied, rejected, conflict). */
  onApplied?: (changes: ChangeView[]) => void
  now?: () => number
}

export interface PutBackRequest {
  taskId: string
  taskTitle: string
  mode: string
  how: 'restore' | 'revert'
  /** restore: the turn's label; revert: the reverted change's path. */
  label: string
  /** The item's title in the queue. */
  summary: string
  /** Why the user is asked (they asked for it, and what is unticked). */
  reason: string
  staged: ChangeView[]
}

/**
 * Files put back at the user's request (a checkpoint restore, reverting a change) go through the same
 * changeset review as an edit: nothing is written until accepted. Once answered, what was written is
 * recorded in the task, so the chat shows it and the model is told on its next turn.
 * Resolves with the approval id; `settled` resolves once the answer has been applied.
 */
export function putBackThroughReview(
  deps: PutBackDeps,
  request: PutBackRequest
): { approvalId: string; settled: Promise<ChangeView[]> } {
  const { item, answer } = deps.approvals.ask({
    taskId: request.taskId,
    taskTitle: request.taskTitle,
    kind: 'edit',
    mode: request.mode,
    tool: request.how === 'restore' ? 'restore_checkpoint' : 'revert_change',
    summary: request.summary,
    rule: request.how === 'restore' ? 'checkpoint restore' : 'revert a change',
    reason: request.reason,
    changes: request.staged
  })
  const settled = answer.then(async (decision) => {
    const results: ChangeView[] = []
    const choices = new Map(
      decision.outcome === 'approve' ? (decision.changes ?? []).map(({ changeId, ...rest }) => [changeId, rest]) : []
    )
    for (const change of request.staged) {
      try {
        if (decision.outcome !== 'approve') results.push(await deps.edits.reject(change.id))
        else results.push((await deps.edits.accept(change.id, choices.get(change.id) ?? {})).change)
      } catch {
        // A change that can no longer be decided (already answered elsewhere) keeps its state.
      }
    }
    const written = results.filter((change) => change.status === 'applied' || change.status === 'partially-applied')
    if (written.length > 0 && deps.record) {
      await deps.record(request.taskId, {
        type: 'files-restored',
        at: (deps.now ?? Date.now)(),
        how: request.how,
        label: request.label,
        files: written.map((change) => change.path)
      })
    }
    deps.onApplied?.(results)
    return results
  })
  return { approvalId: item.id, settled }
}
