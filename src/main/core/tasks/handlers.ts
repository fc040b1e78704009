import type { AgentEvent } from '../../../shared/agent/events'
import { ruleWidenings, singleCommandRule } from '../../../shared/policy/widen-rule'
import type { Handlers } from '../../../shared/contract'
import type { approvalsRequests, ChangeView } from '../../../shared/contract/approvals'
import type { reviewRequests } from '../../../shared/contract/review'
import type { TaskSummary, taskRequests } from '../../../shared/contract/task'
import { UserFacingError } from '../../../shared/contract/dispatch'
import { putBackThroughReview } from '../checkpoints/put-back-review'
import type { EventBus } from '../event-bus'
import type { ApprovalQueue } from '../approvals/approval-queue'
import type { EditPort } from '../ports/loop-ports'
import type { TaskManager } from './task-manager'

export type TaskChannels = keyof typeof taskRequests
export type ApprovalChannels = keyof typeof approvalsRequests
export type ReviewChannels = keyof typeof reviewRequests

export function createTaskHandlers(deps: {
  tasks: TaskManager
  /** The open workspace's real root, or null when none is open. */
  currentWorkspace: () => string | null
}): Pick<Handlers, TaskChannels> {
  return {
    'task:start': ({ text, mode, images }) => {
      const workspace = deps.currentWorkspace()
      if (!workspace) throw new UserFacingError('no_workspace', 'Open a project folder before starting a task.')
      return deps.tasks.start({ text, mode, images, workspace })
    },
    'task:send': (input) => deps.tasks.send(input),
    'task:cancel': ({ taskId }) => deps.tasks.cancel(taskId),
    'task:list': async () => {
      await deps.tasks.refresh()
      return deps.tasks.list()
    },
    'task:events': ({ taskId }) => deps.tasks.events(taskId),
    'task:resume': ({ taskId }) => deps.tasks.resume(taskId),
    'task:retryNow': async ({ taskId }) => ({ woken: deps.tasks.retryNow(taskId) }),
    'task:rewind': ({ taskId, checkpointId }) => deps.tasks.rewind(taskId, checkpointId),
    'task:delete': async ({ taskId }) => ({ deleted: await deps.tasks.delete(taskId) }),
    'task:export': ({ taskId, format }) => deps.tasks.export(taskId, format),
    'task:condense': ({ taskId }) => deps.tasks.condense(taskId),
    'task:cost': async ({ taskId }) => ({ models: await deps.tasks.cost(taskId) })
  }
}

/** Approvals across all tasks; `approvals:changed` carries the whole pending list so every tab resyncs. */
/** The suggested rule, or the widening of it the user picked; anything else is refused. */
function widened(rule: unknown, widenTo: string | undefined): unknown {
  if (widenTo === undefined) return rule
  const single = singleCommandRule(rule)
  if (!single || !ruleWidenings(single).includes(widenTo)) {
    throw new UserFacingError('invalid_decision', 'The rule can only be widened to a prefix of the one suggested.')
  }
  return { commandAllow: [widenTo] }
}

export function createApprovalHandlers(deps: {
  approvals: ApprovalQueue
  bus?: EventBus
}): Pick<Handlers, ApprovalChannels> & { dispose(): void } {
  const unsubscribe = deps.bus
    ? deps.approvals.subscribe((items) => deps.bus?.emit('approvals:changed', items))
    : () => undefined
  return {
    'approvals:list': async () => deps.approvals.list(),
    'approvals:decide': async (decision) => {
      const item = deps.approvals.get(decision.approvalId)
      if (!item) throw new UserFacingError('not_found', 'This approval item was already answered or its task stopped.')
      if (decision.changes && item.kind !== 'edit') {
        throw new UserFacingError('invalid_decision', 'Hunk decisions only apply to a file change review.')
      }
      if (decision.changes) {
        const known = new Set((item.changes ?? []).map((change) => change.id))
        const unknown = decision.changes.find((change) => !known.has(change.changeId))
        if (unknown)
          throw new UserFacingError('invalid_decision', `The change ${unknown.changeId} is not part of this review.`)
      }
      if (decision.alwaysAllow !== undefined && !item.suggestedRule) {
        throw new UserFacingError('invalid_decision', 'No "always allow" rule was offered for this item.')
      }
      // The renderer only confirms; the rule saved is the one the policy suggested, never one it sends.
      const alwaysAllow = decision.alwaysAllow ? widened(item.suggestedRule?.rule, decision.widenTo) : undefined
      const { widenTo: _widenTo, ...answer } = decision
      return { resolved: deps.approvals.decide({ ...answer, alwaysAllow }) }
    },
    dispose: unsubscribe
  }
}

export interface ReviewHandlerDeps {
  edits: EditPort
  approvals: Pick<ApprovalQueue, 'ask'>
  /** The task's title and mode, for the review item. */
  task: (taskId: string) => Pick<TaskSummary, 'title' | 'mode'> | undefined
  /** Adds the row a revert leaves in the chat (and the note to the model). */
  record?: (taskId: string, event: AgentEvent) => Promise<void>
  bus?: EventBus
  /** Files the task's commands changed, listed beside the edits. */
  commandChanges?: (taskId: string) => Promise<ChangeView[]>
}

export function createReviewHandlers(deps: ReviewHandlerDeps): Pick<Handlers, ReviewChannels> {
  return {
    'changes:list': async ({ taskId }) => {
      const byCommands = (await deps.commandChanges?.(taskId).catch(() => [])) ?? []
      return [...deps.edits.list(taskId), ...byCommands].sort((a, b) => a.createdAt - b.createdAt)
    },
    'changes:check': async ({ changeIds }) => {
      const checked = await Promise.all(
        changeIds.map(async (changeId) => {
          try {
            const drift = await deps.edits.drift(changeId)
            return drift && { changeId, ...drift }
          } catch {
            return null // an unknown or finished change has nothing to report
          }
        })
      )
      return checked.filter((entry) => entry !== null)
    },
    'changes:revert': async ({ taskId, changeId }) => {
      const task = deps.task(taskId)
      if (!task) throw new UserFacingError('not_found', `No task with id ${taskId}.`)
      let staged: ChangeView
      try {
        staged = await deps.edits.stageRevert(taskId, changeId)
      } catch (error) {
        throw new UserFacingError('revert_failed', error instanceof Error ? error.message : String(error))
      }
      // Undoing a change is a change like any other: reviewed first, then a row in the chat.
      const { approvalId } = putBackThroughReview(
        {
          edits: deps.edits,
          approvals: deps.approvals,
          record: deps.record,
          onApplied: () => {
            for (const change of deps.edits.list(taskId)) deps.bus?.emit('changes:updated', { taskId, change })
          }
        },
        {
          taskId,
          taskTitle: task.title,
          mode: task.mode,
          how: 'revert',
          label: staged.path,
          summary: `Revert the change to ${staged.path}`,
          reason: 'You asked to revert this change: accept what to put back.',
          staged: [staged]
        }
      )
      return { approvalId }
    }
  }
}
