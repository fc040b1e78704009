import { z } from 'zod'
import { defineTool } from './define'

const useMcpToolParams = z
  .object({
    server_name: z.string().min(1),
    tool_name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).optional().describe("Arguments per the tool's schema")
  })
  .strict()

export const useMcpToolTool = defineTool({
  name: 'use_mcp_tool',
  group: 'mcp',
  description:
    'Call a tool of a connected MCP server, found with search_mcp_tools; arguments must follow its input schema.',
  params: useMcpToolParams,
  effect: 'mcp',
  // The dynamic mcp--server--tool definitions are offered in its place, unless their schemas go on
  // demand (over the budget): then search_mcp_tools finds a tool and this calls it.
  hiddenFromModel: true,
  mcpOnDemand: true,
  mcpTarget: (p) => ({ server: p.server_name, tool: p.tool_name }),
  summarize: (p) => `MCP ${p.server_name}: ${p.tool_name}`
})

export type UseMcpToolParams = z.output<typeof useMcpToolParams>
