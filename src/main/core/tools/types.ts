import type { ImageBlock, TextBlock } from '../../../shared/agent/messages'

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
}

/** Tools that act at once (read, list, search, run a command). */
export interface ToolExecutor<P = unknown, C extends ToolContext = ToolContext> {
  name: string
  execute(params: P, ctx: C): Promise<ToolOutput>
}
