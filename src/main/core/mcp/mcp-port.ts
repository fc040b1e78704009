import type { ToolOutput } from '../ports/tool-types'
import { textOutput } from '../ports/tool-types'
import type { ArgumentCheck } from './argument-check'
import type { McpHub, McpToolEntry } from './hub'
import { resourceResultToOutput, toolResultToOutput } from './tool-results'

export interface McpCallContext {
  mode: string
  signal: AbortSignal
  modelSupportsImages: boolean
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
}

/** What the MCP executors and the policy gate need from the hub, narrowed per mode. */
export interface McpPort {
  /** Whether a mode may use a server (its `mcpServers`: all, none or a list). */
  serverAllowed(mode: string, server: string): boolean
  /** Enabled tools of connected servers the mode may use. */
  toolsFor(mode: string): McpToolEntry[]
  hasResourcesFor(mode: string): boolean
  isAlwaysAllowed(server: string, tool: string): boolean
  /** The config file a server comes from (where its alwaysAllow is written). */
  configFile(server: string): string | undefined
  /** The server tool behind a name the model saw. */
  findTool(exposedName: string): McpToolEntry | undefined
  /** Calls one tool: server allowed, tool enabled, arguments valid — else an is_error output. */
  callTool(server: string, tool: string, args: Record<string, unknown>, ctx: McpCallContext): Promise<ToolOutput>
  /** The same for a name the model saw (`mcp--server--tool`). */
  callExposed(exposedName: string, args: Record<string, unknown>, ctx: McpCallContext): Promise<ToolOutput>
  readResource(server: string, uri: string, ctx: McpCallContext): Promise<ToolOutput>
  /** Tools matching a query, with their schemas (for models that get MCP tools on demand). */
  searchTools(mode: string, query: string, limit?: number): McpToolEntry[]
  /** The mode's servers that are not ready: still starting (their tools come later) or failed, with why. */
  notReadyFor(mode: string): Array<{ server: string; status: 'starting' | 'failed'; error?: string }>
}

/** One line naming a mode's servers that are still starting or failed to start; null when all are up. */
export function describeNotReady(servers: ReturnType<McpPort['notReadyFor']>): string | null {
  const starting = servers.filter((s) => s.status === 'starting').map((s) => s.server)
  const failed = servers
    .filter((s) => s.status === 'failed')
    .map((s) => `${s.server} failed to start (${s.error ?? 'no reason given'})`)
  const parts = [
    ...(starting.length
      ? [`still starting: ${starting.join(', ')} (their tools appear once they are up; ask again later)`]
      : []),
    ...failed
  ]
  return parts.length ? `MCP servers not ready: ${parts.join('; ')}.` : null
}

export function createMcpPort(deps: {
  hub: McpHub
  modeServers: (mode: string) => 'all' | 'none' | readonly string[]
}): McpPort {
  // The checker (the MCP SDK's Ajv validator) loads with the first MCP call.
  let checker: Promise<(server: string, tool: string, schema: unknown, args: unknown) => ArgumentCheck> | undefined
  const checkArguments = async (server: string, tool: string, schema: unknown, args: unknown): Promise<ArgumentCheck> =>
    (await (checker ??= import('./argument-check').then(({ createArgumentChecker }) => createArgumentChecker())))(
      server,
      tool,
      schema,
      args
    )
  const serverAllowed = (mode: string, server: string): boolean => {
    const allowed = deps.modeServers(mode)
    return allowed === 'all' ? true : allowed === 'none' ? false : allowed.includes(server)
  }
  const toolsFor = (mode: string) => deps.hub.tools((server) => serverAllowed(mode, server))

  const call = async (entry: McpToolEntry, args: Record<string, unknown>, ctx: McpCallContext): Promise<ToolOutput> => {
    if (!serverAllowed(ctx.mode, entry.server))
      return textOutput(`The ${ctx.mode} mode may not use the MCP server "${entry.server}".`, true)
    if (!entry.enabled)
      return textOutput(`The tool "${entry.name}" of MCP server "${entry.server}" is disabled in its config.`, true)
    const check = await checkArguments(entry.server, entry.name, entry.inputSchema, args)
    if (!check.ok) return textOutput(check.message, true)
    try {
      const result = await deps.hub.callTool(entry.server, entry.name, args, {
        signal: ctx.signal,
        onProgress: ctx.onProgress
      })
      return toolResultToOutput(result, ctx)
    } catch (error) {
      if (ctx.signal.aborted) throw error
      return textOutput(`The MCP server "${entry.server}" failed on "${entry.name}": ${describeError(error)}`, true)
    }
  }

  const unknownTool = (server: string, tool: string, mode: string): ToolOutput => {
    const names = toolsFor(mode)
      .filter((entry) => entry.server === server)
      .map((entry) => entry.name)
    const view = serverAllowed(mode, server)
      ? deps.hub.snapshot().servers.find((candidate) => candidate.name === server)
      : undefined
    if (view?.status === 'starting')
      return textOutput(
        `The MCP server "${server}" is still starting: its tools are not available yet. Continue with other tools and try it again later.`,
        true
      )
    if (view?.status === 'failed')
      return textOutput(`The MCP server "${server}" failed to start: ${view.error ?? 'no reason given'}.`, true)
    if (view?.status !== 'connected') {
      const servers = [...new Set(toolsFor(mode).map((entry) => entry.server))]
      return textOutput(
        `No connected MCP server "${server}" is available in this mode. Servers: ${servers.join(', ') || 'none'}.`,
        true
      )
    }
    return textOutput(
      `The MCP server "${server}" has no tool "${tool}". Its tools: ${names.join(', ') || 'none'}.`,
      true
    )
  }

  return {
    serverAllowed,
    toolsFor,
    hasResourcesFor: (mode) => deps.hub.hasResources((server) => serverAllowed(mode, server)),
    isAlwaysAllowed: (server, tool) => deps.hub.isAlwaysAllowed(server, tool),
    findTool: (exposedName) => deps.hub.findTool(exposedName),
    configFile: (server) =>
      deps.hub.snapshot().servers.find((view) => view.name === server && view.status !== 'untrusted')?.file,
    async callTool(server, tool, args, ctx) {
      const entry = deps.hub.tools().find((candidate) => candidate.server === server && candidate.name === tool)
      return entry ? call(entry, args, ctx) : unknownTool(server, tool, ctx.mode)
    },
    async callExposed(exposedName, args, ctx) {
      const entry = deps.hub.findTool(exposedName)
      return entry ? call(entry, args, ctx) : textOutput(`No MCP tool "${exposedName}" is connected now.`, true)
    },
    async readResource(server, uri, ctx) {
      if (!serverAllowed(ctx.mode, server))
        return textOutput(`The ${ctx.mode} mode may not use the MCP server "${server}".`, true)
      try {
        return resourceResultToOutput(await deps.hub.readResource(server, uri, { signal: ctx.signal }), ctx)
      } catch (error) {
        if (ctx.signal.aborted) throw error
        return textOutput(`The MCP server "${server}" could not read ${uri}: ${describeError(error)}`, true)
      }
    },
    notReadyFor(mode) {
      return deps.hub
        .snapshot()
        .servers.filter(
          (view) => serverAllowed(mode, view.name) && (view.status === 'starting' || view.status === 'failed')
        )
        .map((view) => ({ server: view.name, status: view.status as 'starting' | 'failed', error: view.error }))
    },
    searchTools(mode, query, limit = 10) {
      const words = query
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean)
      const scored = toolsFor(mode).map((entry) => {
        const text = `${entry.server} ${entry.name} ${entry.description ?? ''}`.toLowerCase()
        return { entry, score: words.filter((word) => text.includes(word)).length }
      })
      return scored
        .filter((item) => item.score > 0 || words.length === 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map((item) => item.entry)
    }
  }
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === -32001 || /timed out/i.test(message)) return `no answer in time (${message})`
  const issues = schemaIssues(error)
  if (issues) return `its result does not follow the MCP schema (${issues})`
  return message
}

/** The SDK checks results with zod and throws the issues as JSON: name where, briefly, not the dump. */
function schemaIssues(error: unknown): string | null {
  const raw = (error as { issues?: unknown } | undefined)?.issues
  const issues = Array.isArray(raw) ? raw : parseIssues(error instanceof Error ? error.message : '')
  if (!issues?.length) return null
  const lines = issues.slice(0, 3).map((issue: { path?: unknown[]; message?: unknown }) => {
    const where = Array.isArray(issue.path) && issue.path.length ? issue.path.join('.') : 'result'
    return `${where}: ${typeof issue.message === 'string' ? issue.message : 'invalid'}`
  })
  return `${lines.join('; ')}${issues.length > 3 ? `; ${issues.length - 3} more` : ''}`
}

function parseIssues(message: string): Array<{ path?: unknown[]; message?: unknown }> | null {
  if (!message.trimStart().startsWith('[')) return null
  try {
    const parsed: unknown = JSON.parse(message)
    return Array.isArray(parsed) && parsed.every((item) => item && typeof item === 'object' && 'code' in item)
      ? parsed
      : null
  } catch {
    return null
  }
}
