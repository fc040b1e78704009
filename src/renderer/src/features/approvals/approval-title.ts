import { titleWithCount } from '../../common/approvals/approval-model'
import { useApprovalsStore } from '../../common/approvals/approvals-store'

/** The number of waiting approvals in the window title: `(2) Modus`. */
export function showQueueCountInTitle(): () => void {
  return useApprovalsStore.subscribe((state, previous) => {
    if (state.items.length !== previous.items.length && typeof document !== 'undefined') {
      document.title = titleWithCount(document.title, state.items.length)
    }
  })
}
