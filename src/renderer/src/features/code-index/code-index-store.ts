import { create } from 'zustand'
import { sameJson } from '../../common/same-json'
import { counted } from '../../common/plural'
import type { ModusClient } from '../../../../shared/contract'
import type { CodeIndexStatus } from '../../../../shared/contract/code-index'

/** What the user can ask of the open workspace's index. */
export type CodeIndexAction = 'rebuild' | 'clear' | 'cancel' | 'resume'

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
  current &&
  current.workspace &&
  incoming.workspace &&
  current.workspace !== incoming.workspace &&
  incoming.state !== 'idle' &&
  current.state !== 'idle'
    ? current
    : incoming

export const useCodeIndexStore = create<CodeIndexSlice>((set, get) => ({
  status: null,
  setStatus: (status) =>
    set((state) => {
      const next = nextStatus(state.status, status)
      return sameJson(state.status, next) ? state : { status: next }
    }),
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
  const parts = [`${status.filesDone} / ${counted(status.filesTotal, 'file')}`, counted(status.chunks, 'chunk')]
  if (status.errors) parts.push(`${status.errors} error${status.errors === 1 ? '' : 's'}`)
  const semantic = status.semantic
  if (semantic.state === 'embedding') parts.push(`embedded ${semantic.chunksEmbedded} / ${semantic.chunksTotal}`)
  return parts.join(' · ')
}

/** What the status bar shows of the index: a short label, and the one action that fits its state. */
export interface StatusBarView {
  label: string
  /** Files (or chunks, while embedding) done of the total, while a run is under way. */
  progress: { done: number; total: number } | null
  /** `name`: what a screen reader announces (the label alone says little out of context). */
  action: { kind: 'cancel' | 'resume'; label: string; name: string } | null
}

export function statusBarView(status: CodeIndexStatus): StatusBarView {
  const { semantic } = status
  if (status.state === 'indexing' && semantic.state === 'embedding') {
    return {
      label: `Embedding ${semantic.chunksEmbedded} / ${counted(semantic.chunksTotal, 'chunk')}`,
      progress: { done: semantic.chunksEmbedded, total: semantic.chunksTotal },
      action: { kind: 'cancel', label: 'Cancel', name: 'Cancel indexing' }
    }
  }
  if (status.state === 'indexing' || status.state === 'loading') {
    return {
      label: `Indexing ${status.filesDone} / ${counted(status.filesTotal, 'file')}`,
      progress: { done: status.filesDone, total: status.filesTotal },
      action: { kind: 'cancel', label: 'Cancel', name: 'Cancel indexing' }
    }
  }
  if (status.state === 'cancelled')
    return {
      label: `Index paused at ${status.filesDone} / ${counted(status.filesTotal, 'file')}`,
      progress: null,
      action: { kind: 'resume', label: 'Resume', name: 'Resume indexing' }
    }
  if (status.state === 'ready')
    return { label: `Index: ${counted(status.chunks, 'chunk')}`, progress: null, action: null }
  if (status.state === 'error')
    return { label: 'Index failed', progress: null, action: { kind: 'resume', label: 'Retry', name: 'Retry indexing' } }
  // Idle: never built here (auto-start off, or the workspace is past the size limit).
  return { label: 'Not indexed', progress: null, action: { kind: 'resume', label: 'Build index', name: 'Build index' } }
}
