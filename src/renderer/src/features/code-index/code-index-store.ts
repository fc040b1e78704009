import { create } from 'zustand'
import type { CodeIndexStatus } from '../../../../shared/contract/code-index'

interface CodeIndexSlice {
  status: CodeIndexStatus | null
  setStatus(status: CodeIndexStatus): void
}

/** A status for another workspace than the one shown is dropped (a late event after switching folders). */
export const nextStatus = (current: CodeIndexStatus | null, incoming: CodeIndexStatus): CodeIndexStatus =>
  current && current.workspace && incoming.workspace && current.workspace !== incoming.workspace && incoming.state !== 'idle' && current.state !== 'idle'
    ? current
    : incoming

export const useCodeIndexStore = create<CodeIndexSlice>((set) => ({
  status: null,
  setStatus: (status) => set((state) => ({ status: nextStatus(state.status, status) }))
}))

/** One line of progress, e.g. "Indexing: 120 / 400 files · 812 chunks · 2 errors". */
export function progressLine(status: CodeIndexStatus): string {
  const parts = [`${status.filesDone} / ${status.filesTotal} files`, `${status.chunks} chunks`]
  if (status.errors) parts.push(`${status.errors} error${status.errors === 1 ? '' : 's'}`)
  const semantic = status.semantic
  if (semantic.state === 'embedding') parts.push(`embedded ${semantic.chunksEmbedded} / ${semantic.chunksTotal}`)
  return parts.join(' · ')
}
