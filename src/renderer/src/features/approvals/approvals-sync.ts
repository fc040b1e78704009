import type { ModusClient } from '../../../../shared/contract'
import { useApprovalsStore } from './approvals-store'

/** After a (re)connect the queue is reloaded from the core, the source of truth. */
export async function resyncApprovals(client: ModusClient): Promise<void> {
  const result = await client.request('approvals:list', {})
  if (result.ok) useApprovalsStore.getState().setItems(result.value)
}
