import type { ImageBlock, TextBlock } from '../../../shared/agent/messages'
import type { ProposedChange, Workspace } from '../workspace/types'
import type { TaskTerminal } from '../terminal/types'

/** What a tool hands back to the model. */
export interface ToolOutput {
  content: Array<TextBlock | ImageBlock>
  isError: boolean
}

export const textOutput = (text: string, isError = false): ToolOutput => ({
  content: [{ type: 'text', text }],
  isError
})

/**
 * Services a tool runs against, supplied per call by the agent loop. Each service's owner defines
 * its interface in its own folder (`workspace/`, `terminal/`); this type only gathers them.
 */
export interface ToolContext {
  taskId: string
  signal: AbortSignal
  modelSupportsImages: boolean
  /** The opened folder; every file tool goes through it (see workspace/types.ts). */
  workspace?: Workspace
  /** The task's terminal (execute_command, read_command_output); see terminal/types.ts. */
  terminal?: TaskTerminal
  /** The task's mode (MCP tools: which servers it may use). */
  mode?: string
  /** Progress of a long call, shown on the tool card. */
  reportProgress?: (progress: { progress: number; total?: number; message?: string }) => void
}

/** Context of the file tools: a workspace is required. */
export type FileToolContext = ToolContext & { workspace: Workspace }

/** Context of the command tools: the task's terminal is required. */
export type CommandToolContext = ToolContext & { terminal: TaskTerminal }

/** Context of the MCP tools: the mode decides which servers may be used. */
export type McpToolContext = ToolContext & { mode: string }

/** Tools that act at once (read, list, search, run a command). */
export interface ToolExecutor<P = unknown, C extends ToolContext = ToolContext> {
  name: string
  execute(params: P, ctx: C): Promise<ToolOutput>
}

/**
 * What an edit tool produces: proposals for review (never written by the tool), plus notes for the
 * model (e.g. which SEARCH blocks failed), or an error output when nothing could be proposed.
 */
export type ProposalResult =
  | { ok: true; changes: ProposedChange[]; notes: string[] }
  | { ok: false; output: ToolOutput }

/** Edit tools (write_to_file, apply_diff, edit, apply_patch): the loop stages what they propose. */
export interface EditToolExecutor<P = unknown, C extends ToolContext = FileToolContext> {
  name: string
  propose(params: P, ctx: C): Promise<ProposalResult>
}
