import type { AccessMcpResourceParams } from '../../../shared/tools/access-mcp-resource'
import type { McpPort } from '../mcp/mcp-port'
import type { McpToolContext, ToolExecutor } from '../ports/tool-types'

/** access_mcp_resource: reads one resource of a connected server. */
export function createAccessMcpResourceExecutor(mcp: McpPort): ToolExecutor<AccessMcpResourceParams, McpToolContext> {
  return {
    execute: (params, ctx) =>
      mcp.readResource(params.server_name, params.uri, {
        mode: ctx.mode,
        signal: ctx.signal,
        modelSupportsImages: ctx.modelSupportsImages
      })
  }
}
