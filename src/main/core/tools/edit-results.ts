import type { AcceptOutcome, StagedChange } from '../workspace/types'
import { textOutput, type ToolOutput } from './types'

/** What the model hears when the user rejected a staged change. */
export function rejectionMessage(change: StagedChange): string {
  const reason = change.rejectReason ? ` Their reason: ${change.rejectReason}` : ''
  return `The user rejected the change to ${change.displayPath}; nothing was written.${reason}`
}

/**
 * The tool result of an edit call once every staged change is decided: the tool's own notes (e.g.
 * per-block results), then one line per change. An error only when nothing could be written.
 */
export function editToolOutput(notes: readonly string[], decided: ReadonlyArray<AcceptOutcome | { status: 'rejected'; change: StagedChange }>): ToolOutput {
  const lines = [...notes]
  for (const d of decided) lines.push(d.status === 'rejected' ? rejectionMessage(d.change) : d.message)
  const written = decided.some((d) => d.status === 'applied' || d.status === 'reapplied')
  const conflicted = decided.some((d) => d.status === 'conflict')
  return textOutput(lines.join('\n\n'), conflicted && !written)
}
