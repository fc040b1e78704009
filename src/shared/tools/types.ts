import type { z } from 'zod'

/** Roo's tool groups, which a mode lists; `always` marks tools every mode has. */
export type ToolGroupName = 'read' | 'edit' | 'command' | 'browser' | 'mcp' | 'modes'

/**
 * What running a tool does to the world; the policy decides from it and the paths, never from names.
 * - read: reads the workspace paths `readPaths` names (none: only what the task itself produced).
 * - edit: proposes changes to the paths `writePaths` names; staged for review.
 * - command: runs the shell command line `commandLine` gives.
 * - browser: drives the task's browser; `browserUrl` names the page it opens.
 * - mcp: calls a tool or reads a resource of an MCP server.
 * - task-control: changes only the task's own state (completion, questions, todos, mode, subtasks).
 */
export type ToolEffect = 'read' | 'edit' | 'command' | 'browser' | 'mcp' | 'task-control'

/** Mode toggles that let a task-control tool run without asking. */
export type TaskControlToggle = 'modeSwitch' | 'subtasks'

/**
 * A tool as the model and the policy see it. Pure data + pure functions, so the renderer, the
 * policy and the core share it. The zod schema is the validator and the source of the JSON schema
 * sent to the model. Execution lives in `src/main/core/tools/<name>.ts`.
 */
export interface ToolDefinition<
  P extends z.ZodType = z.ZodType,
  N extends string = string,
  E extends ToolEffect = ToolEffect
> {
  name: N
  group: ToolGroupName | 'always'
  description: string
  params: P
  effect: E
  /** Workspace paths the call reads (effect read). */
  readPaths?(params: z.output<P>): string[]
  /** Every workspace path the call would write (effect edit): checked against the mode's fileRegex. */
  writePaths?(params: z.output<P>): string[]
  /** The shell command line the call runs and where (effect command). */
  commandLine?(params: z.output<P>): { command: string; cwd?: string; outsideSandbox?: boolean }
  /** The page the call opens (effect browser); undefined when it stays on the page already open. */
  browserUrl?(params: z.output<P>): string | undefined
  /** The server and tool the call reaches (effect mcp; no tool for a resource read): the server config's always-allow applies to a tool. */
  mcpTarget?(params: z.output<P>): { server: string; tool?: string } | undefined
  /**
   * Effect task-control: the mode toggle that lets it run unasked. Without one it never needs
   * approval (it changes only the conversation) and runs without the repetition check.
   */
  approvalToggle?: TaskControlToggle
  /** The call is itself a question to the user: the mode's follow-up toggle answers it after a delay. */
  asksUser?: boolean
  /** The user's next message is the call's result (the answer to a question, feedback on a completion). */
  answeredByUserMessage?: boolean
  /** Offered only while a server the mode may use has resources to read. */
  needsMcpResources?: boolean
  /** Offered only to models that ask for it (ModelInfo.includedTools). */
  optIn?: boolean
  /** Never offered to the model under this name (dynamic definitions stand in for it). */
  hiddenFromModel?: boolean
  /**
   * Offered (hidden or not) exactly when the mode's MCP tool schemas are over the budget and go on
   * demand: the search tool, and use_mcp_tool to call what it found.
   */
  mcpOnDemand?: boolean
  /** Tool calls after it in the same message are not run (it hands the conversation over). */
  lastInMessage?: boolean
  /** A JSON schema sent to the model instead of the one derived from `params` (MCP tools). */
  inputJsonSchema?: Record<string, unknown>
  /** One line for the approval item and the chat's tool card. */
  summarize(params: z.output<P>): string
}
