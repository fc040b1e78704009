import { z } from 'zod'
import { request } from './define'

/**
 * One MCP server as written in `mcp.json` (Roo's `mcpServers` format, read as it is). Either a
 * program started over stdio (`command`) or a URL (Streamable HTTP, legacy SSE as a fallback).
 */
export const McpServerEntry = z
  .object({
    type: z.enum(['stdio', 'streamable-http', 'sse']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    url: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    disabled: z.boolean().optional(),
    /** Tools run without asking; `"*"` means every tool of the server. */
    alwaysAllow: z.array(z.string()).optional(),
    /** Tools the model never sees. */
    disabledTools: z.array(z.string()).optional(),
    /** Seconds a request may take (1–3600, default 60). */
    timeout: z.number().int().min(1).max(3600).optional(),
    /** Roo's key: paths whose change restarts the server. Kept, not used. */
    watchPaths: z.array(z.string()).optional()
  })
  .passthrough()
  .superRefine((entry, ctx) => {
    if (entry.command && entry.url)
      ctx.addIssue({
        code: 'custom',
        message: 'has both "command" and "url": a server is either a program (stdio) or a URL'
      })
    else if (!entry.command && !entry.url)
      ctx.addIssue({ code: 'custom', message: 'needs a "command" (stdio) or a "url"' })
    else if (entry.type === 'stdio' && !entry.command)
      ctx.addIssue({ code: 'custom', message: 'type "stdio" needs a "command"' })
    else if (entry.type && entry.type !== 'stdio' && !entry.url)
      ctx.addIssue({ code: 'custom', message: `type "${entry.type}" needs a "url"` })
  })
export type McpServerEntry = z.infer<typeof McpServerEntry>

export const McpScope = z.enum(['global', 'project'])
export type McpScope = z.infer<typeof McpScope>

export const McpServerStatus = z.enum(['disabled', 'untrusted', 'stopped', 'starting', 'connected', 'failed'])
export type McpServerStatus = z.infer<typeof McpServerStatus>

export const McpToolView = z.object({
  name: z.string(),
  /** The function name the model sees (`mcp--server--tool`). */
  exposedName: z.string(),
  description: z.string().optional(),
  enabled: z.boolean(),
  alwaysAllow: z.boolean()
})
export type McpToolView = z.infer<typeof McpToolView>

export const McpServerView = z.object({
  name: z.string(),
  scope: McpScope,
  /** The config file the server comes from. */
  file: z.string(),
  /** The command line or URL, as the trust prompt and the list show it. */
  target: z.string(),
  transport: z.string(),
  status: McpServerStatus,
  error: z.string().optional(),
  /** Last lines the server wrote to stderr (stdio) — often the reason it failed. */
  stderr: z.string().optional(),
  tools: z.array(McpToolView),
  resources: z.array(z.object({ uri: z.string(), name: z.string(), mimeType: z.string().optional() })),
  logs: z.array(z.string()),
  entry: McpServerEntry
})
export type McpServerView = z.infer<typeof McpServerView>

export const McpConfigProblem = z.object({ file: z.string(), line: z.number().optional(), message: z.string() })
export type McpConfigProblem = z.infer<typeof McpConfigProblem>

export const McpSnapshot = z.object({
  servers: z.array(McpServerView),
  problems: z.array(McpConfigProblem),
  /** Where "add a server" writes in each scope. */
  files: z.object({ global: z.string(), project: z.string().nullable() })
})
export type McpSnapshot = z.infer<typeof McpSnapshot>

const serverName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[^\s/\\]+$/, 'no spaces or slashes')

export const mcpRequests = {
  'mcp:list': request(z.object({}).strict(), McpSnapshot),
  'mcp:restart': request(z.object({ server: z.string().min(1) }).strict(), McpSnapshot),
  /** Adds or replaces a server in the scope's config file (the file is never rewritten if broken). */
  'mcp:saveServer': request(
    z
      .object({ scope: McpScope, name: serverName, previousName: z.string().optional(), entry: McpServerEntry })
      .strict(),
    McpSnapshot
  ),
  'mcp:removeServer': request(z.object({ scope: McpScope, name: z.string().min(1) }).strict(), McpSnapshot),
  /** Enables/disables a tool for the model, or marks it always allowed, in the server's own file. */
  'mcp:setTool': request(
    z
      .object({
        server: z.string().min(1),
        tool: z.string().min(1),
        enabled: z.boolean().optional(),
        alwaysAllow: z.boolean().optional()
      })
      .strict(),
    McpSnapshot
  )
}

export const mcpEvents = {
  'mcp:changed': McpSnapshot
}
