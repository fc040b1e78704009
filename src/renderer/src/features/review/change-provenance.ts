import type { ChangeView } from '../../../../shared/contract/approvals'
import { computeHunks } from '../../../../shared/diff/hunks'
import type { ChatItem } from '../../common/chat/task-view'
import { pastVerbOf } from '../../common/chat/tool-words'

/** Where a change came from, as the Changes list says it. */
export interface Provenance {
  /** "Turn 2 · “Fix the tests”", or null for changes outside the model's turns (restores, reverts). */
  turn: string | null
  /** What made it, in the chat card's words: "Wrote", "Edited", "Restore", "Revert", "Command: sed -i …". */
  source: string
  /** The raw tool name, for hover: the words above are what the list shows. */
  tool?: string
  /** A restore or a revert: the user's own putting back, not the model's edit. */
  putBack: boolean
}

const LABEL_LENGTH = 40

/** For each tool call of the chat: the user turn it belongs to (1-based) and that turn's text. */
export function turnsOfCalls(items: readonly ChatItem[] | undefined): Map<string, { turn: number; text: string }> {
  const turns = new Map<string, { turn: number; text: string }>()
  let turn = 0
  let text = ''
  for (const item of items ?? []) {
    if (item.kind === 'user') {
      turn++
      text = item.text
    } else if (item.kind === 'tool') turns.set(item.id, { turn, text })
  }
  return turns
}

export function provenanceOf(change: ChangeView, turns: Map<string, { turn: number; text: string }>): Provenance {
  const found = change.callId ? turns.get(change.callId) : undefined
  const label = found
    ? `Turn ${found.turn} · “${found.text.length > LABEL_LENGTH ? `${found.text.slice(0, LABEL_LENGTH - 1)}…` : found.text}”`
    : null
  if (change.tool === 'restore_checkpoint') return { turn: null, source: 'Restore', putBack: true }
  if (change.tool === 'revert_change') return { turn: null, source: 'Revert', putBack: true }
  if (change.byCommand !== undefined) return { turn: label, source: `Command: ${change.byCommand}`, putBack: false }
  if (change.tool === undefined) return { turn: label, source: 'Edited', putBack: false }
  return { turn: label, source: pastVerbOf(change.tool), tool: change.tool, putBack: false }
}

/**
 * The change as it reached the disk: a written change shows what was written (after rejected hunks
 * and the user's edits), not what the model proposed. A change not written shows the proposal.
 */
export function asWritten(change: ChangeView): ChangeView {
  if (change.written === undefined) return change
  const written = change.written
  return { ...change, proposed: written, hunks: computeHunks(change.original ?? '', written ?? '') }
}

/** "14:05:09": the time of day the change was made. */
export const timeOf = (at: number): string =>
  new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
