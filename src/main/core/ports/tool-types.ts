import type { ImageBlock, TextBlock } from '../../../shared/agent/messages'
import type { ProposedChange, Workspace } from '../workspace/types'
import type { SandboxWrap, TaskTerminal } from '../terminal/types'
import type { ToolEffect } from '../../../shared/tools/types'
import type { CommandRunPlan } from '../../../shared/policy/run-plan'
import type { LoopDeps, RunControl } from './loop-deps'
import type { TaskSession } from './task-session'

/** What a tool hands back to the model. */
export interface ToolOutput {
  content: Array<TextBlock | ImageBlock>
  isError: boolean
  /** The exit code of the command the tool ran, for the tool card (the model reads it in the text). */
  exitCode?: number
  /** Nothing ran: what the run plan found at run time (a name meaning something else) needs the user's approval. */
  needsApproval?: { rule: string; reason: string }
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
  /** The call being run, when known (a command's checkpoint names it). */
  callId?: string
  signal: AbortSignal
  modelSupportsImages: boolean
  /** The opened folder; every file tool goes through it (see workspace/types.ts). */
  workspace?: Workspace
  /** The task's terminal (execute_command, read_command_output); see terminal/types.ts. */
  terminal?: TaskTerminal
  /** The task's mode (MCP tools: which servers it may use). */
  mode?: string
  /**
   * Whether the mode's policy lets the browser open a page unasked (navigations and requests a page
   * starts itself); `from` is the page that starts it: its own origin is all the browser toggle covers.
   */
  checkPage?: (url: string, from?: string) => Promise<{ allowed: boolean; reason: string }>
  /** The run plan of an auto-approved command; absent when the user approved it (it runs as written). */
  plan?: CommandRunPlan
  /** The mode's command sandbox: null when the mode has none (see sandbox/). */
  sandbox?: (request: SandboxRequest) => Promise<CommandSandbox | null>
  /** Progress of a long call, shown on the tool card. */
  reportProgress?: (progress: { progress: number; total?: number; message?: string }) => void
  /** The live tail of a running command's output, shown under its card (see terminal/live-tail.ts). */
  reportOutput?: (output: { tail: string; lines: number }) => void
}

/** The command a sandbox is chosen for, and whether the model asked to run it outside (`outside_sandbox`). */
export interface SandboxRequest {
  command: string
  outsideSandbox: boolean
}

/** How a command of a sandboxed mode runs: wrapped, or (after the user approved) without, and why (the policy's plan says which). */
export type CommandSandbox =
  { wrap: (command: string, shell: string, tty?: string) => Promise<SandboxWrap> } | { outside: string }

/** Context of the file tools: a workspace is required. */
export type FileToolContext = ToolContext & { workspace: Workspace }

/** Context of the command tools: the task's terminal is required. */
export type CommandToolContext = ToolContext & { terminal: TaskTerminal }

/** Context of the MCP tools: the mode decides which servers may be used. */
export type McpToolContext = ToolContext & { mode: string }

/** Everything a call may need: the pipeline builds it for every tool. */
export type FullToolContext = ToolContext & { workspace: Workspace; terminal: TaskTerminal; mode: string }

/** Tools that act at once (read, list, search, run a command, MCP). */
export interface ToolExecutor<P = unknown, C extends ToolContext = ToolContext> {
  execute(params: P, ctx: C): Promise<ToolOutput>
}

/**
 * What an edit tool produces: proposals for review (never written by the tool), plus notes for the
 * model (e.g. which SEARCH blocks failed), or an error output when nothing could be proposed.
 */
export type ProposalResult =
  { ok: true; changes: ProposedChange[]; notes: string[] } | { ok: false; output: ToolOutput }

/** Edit tools (write_to_file, apply_diff, edit, apply_patch): the loop stages what they propose. */
export interface EditToolExecutor<P = unknown, C extends ToolContext = FileToolContext> {
  propose(params: P, ctx: C): Promise<ProposalResult>
}

/** The task a task-control tool acts on: its session, the loop's ports and the run's control. */
export interface TaskToolContext extends ToolContext {
  callId: string
  session: TaskSession
  loop: Pick<LoopDeps, 'gate' | 'subtasks' | 'now'>
  control: RunControl
  /** The context blocks a user's text's @-mentions attach, as for a message (a follow-up answer). */
  attachMentions(text: string): Promise<string[]>
}

/** A task-control tool answers the call, ends the turn with a result, or sees the run cancelled. */
export type TaskToolOutcome =
  | { kind: 'result'; output: ToolOutput }
  | { kind: 'completed'; result: string }
  | { kind: 'cancelled'; output?: ToolOutput }
  /**
   * Started, and runs beside the message's next calls (an isolated subtask): the loop takes its
   * outcome after the last call of the message, before the next request.
   */
  | { kind: 'parallel'; outcome: Promise<Exclude<TaskToolOutcome, { kind: 'parallel' }>> }

/** Task-control tools (completion, follow-up, todos, mode switch, subtasks). */
export interface TaskToolExecutor<P = unknown> {
  execute(params: P, ctx: TaskToolContext): Promise<TaskToolOutcome>
  /**
   * After a restart, a call that had started and has no result: the result of work that outlived
   * the process (a subtask), waited for again if need be; null when there is none to recover.
   */
  reattach?(ctx: TaskToolContext): Promise<ToolOutput | null>
}

/** The executor shape a definition's effect calls for. */
export type ExecutorFor<E extends ToolEffect, P> = E extends 'edit'
  ? EditToolExecutor<P, FileToolContext>
  : E extends 'task-control'
    ? TaskToolExecutor<P>
    : ToolExecutor<P, FullToolContext>

/** Any executor, for tools only known at run time (MCP, custom, tests). */
export type AnyToolExecutor =
  ToolExecutor<never, FullToolContext> | EditToolExecutor<never, FileToolContext> | TaskToolExecutor<never>
