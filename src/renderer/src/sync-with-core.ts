import type { ModusClient } from '../../shared/contract'
import { useConnectionStore } from './client/connection-store'
import { useApprovalsStore } from './common/approvals/approvals-store'
import { useChatStore } from './common/chat/chat-store'
import { useCodeIndexStore } from './features/code-index/code-index-store'
import { useSettingsStore } from './common/settings/settings-store'
import { useWorkspaceStore } from './common/workspace/workspace-store'

/**
 * On every (re)connect the core is the source of truth: the open folder, the settings, the approval
 * queue and the tasks are read again, as soon as the connection opens. Started before the app's first
 * render: when the page's early socket already holds the answers, they are in the stores by the time
 * React renders, so the first screen rendered is the chat, not the folder picker replaced a moment
 * later. The connection store's `synced` says when those answers are first in. The modes, the
 * recent folders and the index status are read here too, not only by the composer, the folder picker
 * and the status bar when they mount: from the early answers they are in that first render, and the
 * same answers given to the views' own reads change nothing, so no second render comes between the
 * first screen's paint and the next frame.
 */
export function syncWithCore(client: ModusClient): () => void {
  let syncedGeneration = 0
  const sync = ({ state, generation }: { state: string; generation: number }): void => {
    if (state !== 'open' || generation === syncedGeneration) return
    syncedGeneration = generation
    const loads = [
      useWorkspaceStore.getState().load(client),
      useSettingsStore.getState().load(client),
      useApprovalsStore.getState().load(client),
      useChatStore.getState().loadModes(client),
      useWorkspaceStore.getState().loadRecent(client),
      useCodeIndexStore.getState().load(client),
      // A reload or a second tab reopens the running or last task; a later reconnect keeps "New task".
      useChatStore.getState().resync(client, { reopenLast: generation <= 1 })
    ]
    void Promise.allSettled(loads).then(() => useConnectionStore.getState().setSynced())
  }
  sync(useConnectionStore.getState())
  return useConnectionStore.subscribe(sync)
}
