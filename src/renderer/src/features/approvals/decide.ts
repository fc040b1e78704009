import type { ModusClient } from '../../../../shared/contract'
import type { ApprovalDecision } from '../../../../shared/contract/approvals'
import { unwrap } from '../../client/unwrap'
import { useApprovalsStore } from './approvals-store'

/**
 * Sends a decision; the item leaves the queue at once (the core's `approvals:changed` confirms).
 * An item the core no longer has (decided elsewhere, task cancelled) is dropped with a message.
 */
export async function decideApproval(client: ModusClient, decision: ApprovalDecision): Promise<void> {
  const { resolved } = unwrap(await client.request('approvals:decide', decision))
  const store = useApprovalsStore.getState()
  store.setItems(store.items.filter((item) => item.id !== decision.approvalId))
  if (!resolved) throw new Error('This approval was already answered or its task stopped.')
}
