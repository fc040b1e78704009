import type { ModusClient } from '../../../shared/contract'
import { showQueueCountInTitle } from '../features/approvals/approval-title'
import { useApprovalsStore } from '../common/approvals/approvals-store'
import { useChatStore, type LiveEvent } from '../common/chat/chat-store'
import { createEventBatcher } from '../features/chat/event-batcher'
import { useCodeIndexStore } from '../features/code-index/code-index-store'
import { useHistoryStore } from '../features/history/history-store'
import { useMcpStore } from '../features/mcp/mcp-store'
import { toModesListing } from '../features/modes/modes-api'
import { useModesStore } from '../features/modes/modes-store'
import { useReviewStore } from '../common/review/review-store'
import { useSettingsStore } from '../common/settings/settings-store'
import { useTerminalStore } from '../features/terminal/terminal-store'
import { useWorkspaceStore } from '../common/workspace/workspace-store'
import { useWorktreesStore } from '../features/worktrees/worktrees-store'

/**
 * The one place the core's events reach the renderer's state: each event (already parsed by the
 * client) goes to the slice that owns it, whether or not that feature's view is open. Task events
 * are batched per animation frame so a fast stream renders once per frame.
 */
export function routeEvents(client: ModusClient): () => void {
  const batcher = createEventBatcher<LiveEvent>((taskId, events) =>
    useChatStore.getState().applyLiveEvents(taskId, events)
  )
  const unsubscribe = client.subscribe((name, payload) => {
    switch (name) {
      case 'task:event':
        return batcher.push(payload.taskId, {
          event: payload.event,
          replays: useChatStore.getState().replays[payload.taskId] ?? 0
        })
      case 'task:updated':
        batcher.flush()
        useChatStore.getState().upsertTask(payload)
        return useHistoryStore.getState().upsert(payload)
      case 'approvals:changed':
        useReviewStore.getState().keepDrafts(payload.map((item) => item.id))
        return useApprovalsStore.getState().setItems(payload)
      case 'changes:updated':
        return useReviewStore.getState().upsertChange(payload.change)
      case 'worktrees:changed':
        return useWorktreesStore.getState().setTasks(payload)
      case 'workspace:opened':
        return useWorkspaceStore.getState().setCurrent(payload)
      case 'settings:changed':
        return useSettingsStore.getState().setSettings(payload)
      case 'codeindex:progress':
        return useCodeIndexStore.getState().setStatus(payload)
      case 'terminal:data':
        return useTerminalStore.getState().deliverOutput(payload.terminalId, payload.data)
      case 'terminal:changed':
        return useTerminalStore.getState().setTerminals(payload)
      case 'mcp:changed':
        return useMcpStore.getState().setSnapshot(payload)
      case 'modes:changed': {
        // Changes from elsewhere (another window, a file edited on disk) keep the editor's unsaved draft.
        const projectTrusted = useWorkspaceStore.getState().current?.trusted ?? false
        useModesStore.getState().setListing(toModesListing(payload, projectTrusted))
        return useChatStore.getState().setModes(payload)
      }
    }
  })
  const stopTitle = showQueueCountInTitle()
  return () => {
    batcher.dispose()
    unsubscribe()
    stopTitle()
  }
}
