import { WorkspaceError } from '../workspace/types'
import { textOutput, type ToolOutput } from '../ports/tool-types'

/** Turns workspace failures into tool results the model can act on; anything else is rethrown. */
export function workspaceErrorOutput(err: unknown): ToolOutput {
  if (err instanceof WorkspaceError) return textOutput(`Error: ${err.message}`, true)
  throw err
}

export function outsideNote(outside: boolean): string {
  return outside ? ' (outside the workspace)' : ''
}
