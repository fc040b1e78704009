import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import type { CodeIndexStatus } from '../../../../shared/contract/code-index'

/** What the user can ask of the open workspace's index. */
export type CodeIndexAction = 'rebuild' | 'clear' | 'cancel'

interface CodeIndexSlice {
  status: CodeIndexStatus | null
  setStatus(status: CodeIndexStatus): void
  /** Reads the index status from the core. */
  load(client: ModusClient): Promise<void>
  /** Rebuilds, clears or cancels the index; the error text when the core refused. */
  run(client: ModusClient, action: CodeIndexAction): Promise<string | null>
}

/** A status for another workspace than the one shown is dropped (a late event after switching folders). */
export const nextStatus = (current: CodeIndexStatus | null, incoming: CodeIndexStatus): CodeIndexStatus =>
  current && current.workspace && incoming.workspace && current.workspace !== incoming.workspace && incoming.state !== 'idle' && current.state !== 'idle'
    ? current
    : incoming

export const useCodeIndexStore = create<CodeIndexSlice>((set, get) => ({
  status: null,
  setStatus: (status) => set((state) => ({ status: nextStatus(state.status, status) })),
  async load(client) {
    const result = await client.request('codeindex:status', {})
    if (result.ok) get().setStatus(result.value)
  },
  async run(client, action) {
    const result = await client.request(`codeindex:${action}`, {})
    if (!result.ok) return result.error.message
    get().setStatus(result.value)
    return null
  }
}))

/** One line of progress, e.g. "Indexing: 120 / 400 files · 812 chunks · 2 errors". */
export function progressLine(status: CodeIndexStatus): string {
  const parts = [`${status.filesDone} / ${status.filesTotal} files`, `${status.chunks} chunks`]
  if (status.errors) parts.push(`${status.errors} error${status.errors === 1 ? '' : 's'}`)
  const semantic = status.semantic
  if (semantic.state === 'embedding') parts.push(`embedded ${semantic.chunksEmbedded} / ${semantic.chunksTotal}`)
  return parts.join(' · ')
}
