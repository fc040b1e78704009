import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { ChangeView } from '../../../../shared/contract/approvals'
import type { CheckpointSettingsInput, CheckpointUsage, RestoreSummary } from '../../../../shared/contract/checkpoints'
import { unwrap } from '../../client/unwrap'

interface CheckpointsSlice {
  /** Space the checkpoints use per workspace and the settings that bound it, as last read. */
  usage: CheckpointUsage | null
  /** Each task's diff from its start to now, as last read. */
  sinceStart: Record<string, ChangeView[]>
  /** Reads the usage; the error text when the core refused. */
  loadUsage(client: ModusClient): Promise<string | null>
  /** Saves the size settings; the error text when the core refused. */
  saveSettings(client: ModusClient, settings: CheckpointSettingsInput): Promise<string | null>
  /** Reads a task's changes since it started; the error text when the core refused. */
  loadSinceStart(client: ModusClient, taskId: string): Promise<string | null>
  /** Opens the review with the files as they were at the checkpoint; throws what the core refused. */
  restore(client: ModusClient, taskId: string, checkpointId: string): Promise<RestoreSummary>
  /** Takes the conversation back to the checkpoint; throws what the core refused. */
  rewind(client: ModusClient, taskId: string, checkpointId: string): Promise<void>
}

export const useCheckpointsStore = create<CheckpointsSlice>((set) => ({
  usage: null,
  sinceStart: {},
  async loadUsage(client) {
    const result = await client.request('checkpoints:usage', {})
    if (!result.ok) return result.error.message
    set({ usage: result.value })
    return null
  },
  async saveSettings(client, settings) {
    const result = await client.request('checkpoints:saveSettings', settings)
    if (!result.ok) return result.error.message
    set({ usage: result.value })
    return null
  },
  async loadSinceStart(client, taskId) {
    const result = await client.request('checkpoints:taskChanges', { taskId })
    if (!result.ok) return result.error.message
    set((state) => ({ sinceStart: { ...state.sinceStart, [taskId]: result.value } }))
    return null
  },
  restore: async (client, taskId, checkpointId) =>
    unwrap(await client.request('checkpoints:restore', { taskId, checkpointId })),
  async rewind(client, taskId, checkpointId) {
    unwrap(await client.request('task:rewind', { taskId, checkpointId }))
  }
}))
