import type { McpPort } from '../mcp/mcp-port'
import type { McpToolContext, ToolExecutor } from '../ports/tool-types'

/** `mcp--<server>--<tool>`: the executor behind every server tool offered natively to the model. */
export function createMcpServerToolExecutor(
  mcp: McpPort,
  exposedName: string
): ToolExecutor<Record<string, unknown>, McpToolContext> {
  return {
    execute: (params, ctx) =>
      mcp.callExposed(exposedName, params, {
        mode: ctx.mode,
        signal: ctx.signal,
        modelSupportsImages: ctx.modelSupportsImages,
        onProgress: ctx.reportProgress
      })
  }
}
