import type { AgentEvent } from '../../../../shared/agent/events'
import type { ModusClient } from '../../../../shared/contract'
import type { TaskSummary } from '../../../../shared/contract/task'
import { bindApprovalEvents, resyncApprovals } from '../approvals/bind-approval-events'
import { useConnectionStore } from '../../client/connection-store'
import { bindReviewEvents } from '../review/bind-review-events'
import { useChatStore } from './chat-store'
import { createEventBatcher } from './event-batcher'
import { taskToReopen } from './reopen-task'

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

/**
 * After a (re)connect the core is the source of truth: reload the task list, the open task and the
 * queue. The page's first connection (a reload, a second tab) reopens the running or last task, so
 * the user never lands on an empty chat while a task waits; a later reconnect keeps "New task".
 */
export async function resyncChat(client: ModusClient): Promise<void> {
  const [tasks] = await Promise.all([client.request('task:list', {}), resyncApprovals(client)])
  if (!tasks.ok) return
  for (const task of tasks.value) useChatStore.getState().upsertTask(task)
  const { activeTaskId } = useChatStore.getState()
  const firstConnection = useConnectionStore.getState().generation <= 1
  const target = activeTaskId ?? (firstConnection ? taskToReopen(tasks.value) : null)
  if (target) await openTask(client, target)
}

/** Shows a task (e.g. from the approval queue or history) with its full replayed view. */
export async function openTask(client: ModusClient, taskId: string): Promise<void> {
  const events = await client.request('task:events', { taskId })
  if (events.ok) useChatStore.getState().replay(taskId, events.value)
  useChatStore.getState().setActiveTask(taskId)
}
