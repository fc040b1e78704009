import type { ModusClient } from '../../../../shared/contract'
import type { ChangeView } from '../../../../shared/contract/approvals'
import { useReviewStore } from './review-store'

export function bindReviewEvents(client: ModusClient): () => void {
  return client.subscribe((name, payload) => {
    if (name === 'changes:updated') useReviewStore.getState().upsertChange((payload as { change: ChangeView }).change)
  })
}

export async function loadChanges(client: ModusClient, taskId: string): Promise<string | null> {
  const result = await client.request('changes:list', { taskId })
  if (!result.ok) return result.error.message
  useReviewStore.getState().setChanges(taskId, result.value)
  return null
}
