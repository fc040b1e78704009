import type { ModusClient } from '../../../../shared/contract'
import { useApprovalsStore } from '../approvals/approvals-store'
import { useConnectionStore } from '../../client/connection-store'
import { useChatStore } from './chat-store'
import { taskToReopen } from './reopen-task'

/**
 * After a (re)connect the core is the source of truth: reload the task list, the open task and the
 * queue. The page's first connection (a reload, a second tab) reopens the running or last task, so
 * the user never lands on an empty chat while a task waits; a later reconnect keeps "New task".
 */
export async function resyncChat(client: ModusClient): Promise<void> {
  const [tasks] = await Promise.all([client.request('task:list', {}), useApprovalsStore.getState().load(client)])
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
