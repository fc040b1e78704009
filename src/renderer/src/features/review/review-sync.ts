import type { ModusClient } from '../../../../shared/contract'
import { useReviewStore } from './review-store'

/** Loads a task's changes into the review slice; the error text when the core refused. */
export async function loadChanges(client: ModusClient, taskId: string): Promise<string | null> {
  const result = await client.request('changes:list', { taskId })
  if (!result.ok) return result.error.message
  useReviewStore.getState().setChanges(taskId, result.value)
  return null
}
