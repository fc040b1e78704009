import type { ModusClient } from '../../../../shared/contract'
import type { ApprovalItem } from '../../../../shared/contract/approvals'
import { titleWithCount } from './approval-model'
import { useApprovalsStore } from './approvals-store'

/** Keeps the queue equal to the core's and shows the count in the window title: `(2) Modus`. */
export function bindApprovalEvents(client: ModusClient): () => void {
  const unsubscribe = client.subscribe((name, payload) => {
    if (name === 'approvals:changed') useApprovalsStore.getState().setItems(payload as ApprovalItem[])
  })
  const unwatch = useApprovalsStore.subscribe((state, previous) => {
    if (state.items.length !== previous.items.length && typeof document !== 'undefined') {
      document.title = titleWithCount(document.title, state.items.length)
    }
  })
  return () => {
    unsubscribe()
    unwatch()
  }
}

export async function resyncApprovals(client: ModusClient): Promise<void> {
  const result = await client.request('approvals:list', {})
  if (result.ok) useApprovalsStore.getState().setItems(result.value)
}
