import type { z } from 'zod'

/** Roo's tool groups; `always` marks tools every mode has. */
export type ToolGroupName = 'read' | 'edit' | 'command' | 'mcp' | 'modes'

/**
 * A tool as the model and the policy see it. Pure data + pure functions, so the renderer, the
 * policy and the core share it. The zod schema is the validator and the source of the JSON schema
 * sent to the model. Execution lives in `src/main/core/tools/<name>.ts`.
 */
export interface ToolDefinition<P extends z.ZodType = z.ZodType> {
  name: string
  group: ToolGroupName | 'always'
  description: string
  params: P
  /** True when running it changes files, processes or task state outside the conversation. */
  modifiesState: boolean
  /** Every workspace path the call would write (edit tools): checked against the mode's fileRegex. */
  writePaths?: (params: z.output<P>) => string[]
  /** Every path the call would read. */
  readPaths?: (params: z.output<P>) => string[]
  /** A JSON schema sent to the model instead of the one derived from `params` (MCP tools). */
  inputJsonSchema?: Record<string, unknown>
  /** One line for the approval card and the chat's tool card. */
  summarize: (params: z.output<P>) => string
}
