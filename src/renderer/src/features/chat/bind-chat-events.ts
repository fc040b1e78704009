import type { AgentEvent } from '../../../../shared/agent/events'
import type { ModusClient } from '../../../../shared/contract'
import type { TaskSummary } from '../../../../shared/contract/task'
import { bindApprovalEvents, resyncApprovals } from '../approvals/bind-approval-events'
import { bindReviewEvents } from '../review/bind-review-events'
import { useChatStore } from './chat-store'
import { createEventBatcher } from './event-batcher'

/**
 * Routes task events from the core into the chat slice, batched per animation frame so a fast
 * stream renders once per frame. Also binds the approval queue and the changes list, which live
 * beside the chat and must be current even while their views are closed (badges, title).
 */
export function bindChatEvents(client: ModusClient): () => void {
  const batcher = createEventBatcher((taskId, events) => useChatStore.getState().applyEvents(taskId, events))
  const unbindTasks = client.subscribe((name, payload) => {
    if (name === 'task:event') {
      const { taskId, event } = payload as { taskId: string; event: AgentEvent }
      batcher.push(taskId, event)
    } else if (name === 'task:updated') {
      batcher.flush()
      useChatStore.getState().upsertTask(payload as TaskSummary)
    }
  })
  const unbindApprovals = bindApprovalEvents(client)
  const unbindReview = bindReviewEvents(client)
  return () => {
    batcher.dispose()
    unbindTasks()
    unbindApprovals()
    unbindReview()
  }
}

/** After a (re)connect the core is the source of truth: reload the task list, the open task and the queue. */
export async function resyncChat(client: ModusClient): Promise<void> {
  const [tasks] = await Promise.all([client.request('task:list', {}), resyncApprovals(client)])
  if (!tasks.ok) return
  for (const task of tasks.value) useChatStore.getState().upsertTask(task)
  const active = useChatStore.getState().activeTaskId
  if (active) await openTask(client, active)
}

/** Shows a task (e.g. from the approval queue or history) with its full replayed view. */
export async function openTask(client: ModusClient, taskId: string): Promise<void> {
  const events = await client.request('task:events', { taskId })
  if (events.ok) useChatStore.getState().replay(taskId, events.value)
  useChatStore.getState().setActiveTask(taskId)
}
