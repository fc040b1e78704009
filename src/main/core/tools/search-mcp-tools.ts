import type { SearchMcpToolsParams } from '../../../shared/tools/search-mcp-tools'
import { describeNotReady, type McpPort } from '../mcp/mcp-port'
import { textOutput, type McpToolContext, type ToolExecutor } from '../ports/tool-types'

const MAX_RESULTS = 8

/** search_mcp_tools: the mode's server tools matching a query, each with the schema to call it by. */
export function createSearchMcpToolsExecutor(mcp: McpPort): ToolExecutor<SearchMcpToolsParams, McpToolContext> {
  return {
    async execute(params, ctx) {
      const found = mcp.searchTools(ctx.mode, params.query, MAX_RESULTS)
      // Servers start in the background: the ones not up yet (or that failed) are named, not hidden.
      const notReady = describeNotReady(mcp.notReadyFor(ctx.mode))
      const tail = notReady ? `\n\n${notReady}` : ''
      if (found.length === 0) {
        const servers = [...new Set(mcp.toolsFor(ctx.mode).map((tool) => tool.server))]
        return textOutput(
          (servers.length === 0
            ? 'No MCP server with tools is connected in this mode.'
            : `No MCP tool matches "${params.query}". Servers here: ${servers.join(', ')}; try other words, or an empty query to list every tool.`) +
            tail
        )
      }
      const entries = found.map((tool) =>
        [
          `## server_name: ${tool.server}, tool_name: ${tool.name}`,
          tool.description?.trim() || '(no description)',
          `Input schema: ${JSON.stringify(tool.inputSchema)}`
        ].join('\n')
      )
      return textOutput(
        `${entries.join('\n\n')}\n\nCall one with use_mcp_tool (server_name, tool_name, arguments).${tail}`
      )
    }
  }
}
