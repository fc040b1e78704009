import { z } from 'zod'
import { defineTool } from './define'

const accessMcpResourceParams = z
  .object({
    server_name: z.string().min(1),
    uri: z.string().min(1)
  })
  .strict()

export const accessMcpResourceTool = defineTool({
  name: 'access_mcp_resource',
  group: 'mcp',
  description: 'Read a resource of a connected MCP server.',
  params: accessMcpResourceParams,
  effect: 'mcp',
  needsMcpResources: true,
  mcpTarget: (p) => ({ server: p.server_name }),
  summarize: (p) => `MCP ${p.server_name}: ${p.uri}`
})

export type AccessMcpResourceParams = z.output<typeof accessMcpResourceParams>
