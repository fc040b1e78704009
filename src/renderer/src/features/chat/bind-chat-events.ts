import type { AgentEvent } from '../../../../shared/agent/events'
import type { ModusClient } from '../../../../shared/contract'
import type { TaskSummary } from '../../../../shared/contract/task'
import { useChatStore } from './chat-store'

/** Routes task events from the core into the chat slice. */
export function bindChatEvents(client: ModusClient): () => void {
  return client.subscribe((name, payload) => {
    if (name === 'task:event') {
      const { taskId, event } = payload as { taskId: string; event: AgentEvent }
      useChatStore.getState().applyEvent(taskId, event)
    } else if (name === 'task:updated') {
      useChatStore.getState().upsertTask(payload as TaskSummary)
    }
  })
}

/** After a (re)connect the core is the source of truth: reload the task list and the open task. */
export async function resyncChat(client: ModusClient): Promise<void> {
  const tasks = await client.request('task:list', {})
  if (!tasks.ok) return
  for (const task of tasks.value) useChatStore.getState().upsertTask(task)
  const active = useChatStore.getState().activeTaskId
  if (!active) return
  const events = await client.request('task:events', { taskId: active })
  if (events.ok) useChatStore.getState().replay(active, events.value)
}
