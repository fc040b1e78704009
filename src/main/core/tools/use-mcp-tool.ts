import type { UseMcpToolParams } from '../../../shared/tools/use-mcp-tool'
import type { McpPort } from '../mcp/mcp-port'
import type { McpToolContext, ToolExecutor } from '../ports/tool-types'

/** use_mcp_tool: a server tool named by server and tool (the way to call tools found by search). */
export function createUseMcpToolExecutor(mcp: McpPort): ToolExecutor<UseMcpToolParams, McpToolContext> {
  return {
    execute: (params, ctx) =>
      mcp.callTool(params.server_name, params.tool_name, params.arguments ?? {}, {
        mode: ctx.mode,
        signal: ctx.signal,
        modelSupportsImages: ctx.modelSupportsImages,
        onProgress: ctx.reportProgress
      })
  }
}
