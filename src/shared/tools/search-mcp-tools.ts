import { z } from 'zod'
import { defineTool } from './define'

const searchMcpToolsParams = z
  .object({
    query: z
      .string()
      .trim()
      .max(200)
      .describe('Words of what the tool should do, e.g. "create github issue"; empty lists every tool')
  })
  .strict()

/**
 * Offered instead of the server tools' own definitions when their schemas would cost more than the
 * budget: the model finds a tool here, reads its schema, and calls it with use_mcp_tool.
 */
export const searchMcpToolsTool = defineTool({
  name: 'search_mcp_tools',
  group: 'mcp',
  description:
    'Find tools of the connected MCP servers by what they do. Returns each match with its server, name, description and input ' +
    'schema; call the one you need with use_mcp_tool (server_name, tool_name, arguments per the schema).',
  params: searchMcpToolsParams,
  // Lists what the servers offer; reads no workspace file and calls no server.
  effect: 'read',
  readPaths: () => [],
  hiddenFromModel: true,
  mcpOnDemand: true,
  summarize: (p) => (p.query ? `Search MCP tools for "${p.query}"` : 'List MCP tools')
})

export type SearchMcpToolsParams = z.output<typeof searchMcpToolsParams>
