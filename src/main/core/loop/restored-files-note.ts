import type { AgentEvent } from '../../../shared/agent/events'

type FilesRestored = Extract<AgentEvent, { type: 'files-restored' }>

/**
 * What the user put back since the model last answered (checkpoint restores, reverted changes), said
 * to the model with its next turn: its picture of those files is out of date. Null when nothing was.
 */
export function restoredFilesNote(events: readonly AgentEvent[]): string | null {
  const found: FilesRestored[] = []
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]
    if (event.type === 'assistant-start') break
    if (event.type === 'files-restored') found.unshift(event)
  }
  if (found.length === 0) return null
  const lines = found.map((event) =>
    event.how === 'revert'
      ? `- The user reverted your change to ${event.label}: ${event.files.join(', ')} ${event.files.length === 1 ? 'is' : 'are'} back as before that change.`
      : `- The user restored ${event.files.length} file${event.files.length === 1 ? '' : 's'} to how they were before the turn “${event.label}”: ${event.files.join(', ')}.`
  )
  return [
    '[Files changed by the user since your last response:',
    ...lines,
    'Read these files again before you edit them.]'
  ].join('\n')
}
