import { z } from 'zod'
import type { ToolDefinition } from './types'

/** One tool of a connected MCP server, as the MCP client reports it. */
export interface McpToolInfo {
  server: string
  name: string
  description?: string
  /** The server's JSON schema for the arguments; sent to the model as is. */
  inputSchema?: Record<string, unknown>
  /** The function name the model sees, when the client assigned one (collisions resolved). */
  exposedName?: string
}

const MCP_PREFIX = 'mcp--'
const sanitize = (part: string): string => part.replace(/[^A-Za-z0-9_-]/g, '_').replace(/--+/g, '-')

/** `mcp--<server>--<tool>`, characters the APIs accept, at most 64 long (as Roo). */
export const mcpToolName = (server: string, tool: string): string =>
  `${MCP_PREFIX}${sanitize(server)}--${sanitize(tool)}`.slice(0, 64)

/** Also accepts `mcp__server__tool`, which some models write. */
export const isMcpToolName = (name: string): boolean => name.startsWith(MCP_PREFIX) || name.startsWith('mcp__')

export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  if (!isMcpToolName(name)) return undefined
  const rest = name.slice(MCP_PREFIX.length)
  const separator = name.startsWith('mcp__') ? '__' : '--'
  const at = rest.indexOf(separator)
  if (at <= 0 || at + separator.length >= rest.length) return undefined
  return { server: rest.slice(0, at), tool: rest.slice(at + separator.length) }
}

const mcpArguments = z.record(z.string(), z.unknown())

/** A dynamic tool definition for one MCP tool; the server validates the arguments itself. */
export function mcpToolDefinition(info: McpToolInfo): ToolDefinition<typeof mcpArguments> {
  return {
    name: info.exposedName ?? mcpToolName(info.server, info.name),
    group: 'mcp',
    description: info.description?.trim() || `${info.name} (MCP server ${info.server})`,
    params: mcpArguments,
    inputJsonSchema: info.inputSchema ?? { type: 'object', properties: {}, additionalProperties: false },
    effect: 'mcp',
    mcpTarget: () => ({ server: info.server, tool: info.name }),
    summarize: () => `MCP ${info.server}: ${info.name}`
  }
}
