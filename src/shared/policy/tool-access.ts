import { z } from 'zod'
import { builtInToolNames, getBuiltInTool, isAlwaysAvailable, resolveToolAlias } from '../tools/catalog'
import { isMcpToolName, parseMcpToolName, type McpToolInfo, mcpToolDefinition } from '../tools/mcp'
import type { ToolDefinition } from '../tools/types'
import { groupName, groupOptions, type GroupOptions, type ModeConfig } from '../modes/schema'
import { matchesFileRegex } from '../modes/file-regex'
import { normalizePosix } from './paths'

/** Everything the check needs besides the call: the mode, the model's tool list, the environment. */
export interface ToolAccessContext {
  /** The mode in force; undefined when the slug names no mode (then nothing but nothing is allowed). */
  mode: ModeConfig | undefined
  /** Roo's toolRequirements: `false` disables a tool everywhere, even always-available ones. */
  toolRequirements?: Readonly<Record<string, boolean>>
  disabledTools?: readonly string[]
  /** Per model: opt-in tools it gets (e.g. apply_patch for GPT models) … */
  includedTools?: readonly string[]
  /** … and tools it must not get (e.g. apply_diff for the same models). */
  excludedTools?: readonly string[]
  experiments?: { customTools?: boolean }
  customTools?: readonly ToolDefinition[]
  /** Tools of connected MCP servers. Undefined: MCP names are judged by prefix only (Roo's check). */
  mcpTools?: readonly McpToolInfo[]
  /** Whether any connected server offers resources (access_mcp_resource is hidden otherwise). */
  mcpServersWithResources?: boolean
  /** Definitions built at run time (registered by the core): offered by their group like built-ins. */
  runtimeTools?: readonly ToolDefinition[]
  /** Which MCP servers the mode may use (its `mcpServers`); absent: every server. */
  mcpServerAllowed?: (server: string) => boolean
  /**
   * The mode's MCP tool schemas are over the budget: the server tools are not offered by name, the
   * model finds them with search_mcp_tools and calls them with use_mcp_tool.
   */
  mcpSchemasOnDemand?: boolean
}

const isDisabled = (name: string, ctx: ToolAccessContext): boolean => {
  const resolved = resolveToolAlias(name)
  const requirements = ctx.toolRequirements
  if (requirements && (requirements[name] === false || requirements[resolved] === false)) return true
  return (ctx.disabledTools ?? []).some((tool) => resolveToolAlias(tool) === resolved)
}

const customTool = (name: string, ctx: ToolAccessContext): ToolDefinition | undefined =>
  ctx.experiments?.customTools ? ctx.customTools?.find((tool) => tool.name === name) : undefined

type DefinitionSources = Pick<ToolAccessContext, 'experiments' | 'customTools' | 'mcpTools' | 'runtimeTools'>

/** The definition a name stands for: built-in (or alias), custom (flag on), runtime-built, MCP. */
export function findToolDefinition(name: string, ctx: DefinitionSources = {}): ToolDefinition | undefined {
  const builtIn = getBuiltInTool(name)
  if (builtIn) return builtIn
  const custom = customTool(name, ctx as ToolAccessContext)
  if (custom) return custom
  const runtime = ctx.runtimeTools?.find((tool) => tool.name === name)
  if (runtime) return runtime
  const mcp = ctx.mcpTools && isMcpToolName(name) ? findMcpTool(name, ctx.mcpTools) : undefined
  return mcp ? mcpToolDefinition(mcp) : undefined
}

/** Roo's isValidToolName: a known definition, or (no MCP tool list given) any MCP-shaped name. */
export function isValidToolName(name: string, ctx: DefinitionSources = {}): boolean {
  if (findToolDefinition(name, ctx)) return true
  return isMcpToolName(name) && !ctx.mcpTools
}

const findMcpTool = (name: string, tools: readonly McpToolInfo[]): McpToolInfo | undefined => {
  const exposed = tools.find((tool) => tool.exposedName === name)
  if (exposed) return exposed
  const parsed = parseMcpToolName(name)
  return parsed ? tools.find((tool) => tool.server === parsed.server && tool.name === parsed.tool) : undefined
}

export class FileRestrictionError extends Error {
  override name = 'FileRestrictionError'
  constructor(
    readonly modeName: string,
    readonly pattern: string,
    readonly description: string | undefined,
    readonly filePath: string,
    readonly tool?: string
  ) {
    super(
      `${tool ? `Tool '${tool}' in mode '${modeName}'` : `This mode (${modeName})`} can only edit files matching pattern: ${pattern}${description ? ` (${description})` : ''}. Got: ${filePath}`
    )
  }
}

const EDIT_PAYLOAD_KEYS = [
  'diff',
  'content',
  'operations',
  'search',
  'replace',
  'args',
  'line',
  'patch',
  'old_string',
  'new_string'
]

/**
 * Every path an edit call names, from its definition's writePaths; the arguments may not be
 * validated yet, so a path or file_path argument counts too and a malformed payload names none.
 */
function editPathsOf(definition: ToolDefinition, params: Record<string, unknown> | undefined): string[] {
  if (!params) return []
  const paths: string[] = []
  for (const key of ['path', 'file_path']) if (typeof params[key] === 'string' && params[key]) paths.push(params[key])
  try {
    paths.push(...(definition.writePaths?.(params) ?? []))
  } catch {
    // Arguments of the wrong shape: validation reports them.
  }
  return [...new Set(paths)]
}

/** Test each path; a path is compared in its normalised workspace-relative form. */
export function checkFileRestriction(
  mode: ModeConfig,
  options: GroupOptions,
  tool: string,
  paths: readonly string[]
): void {
  if (!options.fileRegex) return
  for (const path of paths) {
    const normalized = normalizePosix(path)
    if (!matchesFileRegex(options.fileRegex, normalized))
      throw new FileRestrictionError(mode.name, options.fileRegex, options.description, path, tool)
  }
}

/**
 * Roo's isToolAllowedForMode, same order of checks: disabled → always-available → custom tool →
 * mode groups (opt-in tools need includedTools; MCP tools need the mcp group). With params, an
 * edit tool's paths are checked against the group's fileRegex and a FileRestrictionError is thrown.
 */
export function isToolAllowedForMode(tool: string, ctx: ToolAccessContext, params?: Record<string, unknown>): boolean {
  const resolved = resolveToolAlias(tool)
  if (isDisabled(tool, ctx)) return false
  const builtIn = getBuiltInTool(resolved)
  if (builtIn && isAlwaysAvailable(builtIn)) return true
  if (customTool(tool, ctx)) return true
  const mode = ctx.mode
  if (!mode) return false
  const included = new Set((ctx.includedTools ?? []).map(resolveToolAlias))
  // An MCP-shaped name nobody registered still belongs to the mcp group (Roo's check).
  const definition = findToolDefinition(tool, ctx)
  const toolGroup = definition?.group ?? (isMcpToolName(tool) ? 'mcp' : undefined)
  for (const entry of mode.groups) {
    const group = groupName(entry)
    if (toolGroup !== group) continue
    if (definition?.optIn && !included.has(resolved)) continue
    const options = groupOptions(entry)
    if (
      definition &&
      group === 'edit' &&
      options?.fileRegex &&
      params &&
      EDIT_PAYLOAD_KEYS.some((key) => Boolean(params[key]))
    )
      checkFileRestriction(mode, options, tool, editPathsOf(definition, params))
    return true
  }
  return false
}

/** The server behind a server tool (`mcp--server--tool`), when the mode may not use it. */
const forbiddenServer = (definition: ToolDefinition | undefined, ctx: ToolAccessContext): string | undefined => {
  if (definition?.effect !== 'mcp' || !ctx.mcpServerAllowed) return undefined
  const server = definition.mcpTarget?.({})?.server
  return server !== undefined && !ctx.mcpServerAllowed(server) ? server : undefined
}

const serverAllowed = (definition: ToolDefinition | undefined, ctx: ToolAccessContext): boolean =>
  forbiddenServer(definition, ctx) === undefined

/**
 * THE predicate: is this tool offered in this context? The per-request filter keeps exactly the
 * tools for which it holds, and validation refuses every call for which it does not.
 */
export function isToolOffered(name: string, ctx: ToolAccessContext): boolean {
  if (!isValidToolName(name, ctx)) return false
  const resolved = resolveToolAlias(name)
  const definition = findToolDefinition(name, ctx)
  if (definition?.mcpOnDemand) {
    if (!ctx.mcpSchemasOnDemand) return false
  } else if (definition?.hiddenFromModel) return false
  if (ctx.mcpSchemasOnDemand && isMcpToolName(name)) return false
  if (!serverAllowed(definition, ctx)) return false
  if ((ctx.excludedTools ?? []).some((tool) => resolveToolAlias(tool) === resolved)) return false
  if (definition?.needsMcpResources && !ctx.mcpServersWithResources) return false
  if (isMcpToolName(name) && !ctx.mcpTools) return false
  // An alias is offered only under the name the model asked for (MiniMax's search_and_replace),
  // and an opt-in tool the model asked for only by alias is not offered a second time.
  const included = ctx.includedTools ?? []
  if (name !== resolved && !included.includes(name)) return false
  if (name === resolved && definition?.optIn && !included.includes(name)) return false
  return isToolAllowedForMode(name, ctx)
}

/** Every candidate definition: built-ins (and alias names the model opted into), custom, MCP. */
function candidateTools(ctx: ToolAccessContext): ToolDefinition[] {
  const candidates: ToolDefinition[] = []
  for (const name of builtInToolNames) {
    const definition = getBuiltInTool(name) as ToolDefinition
    candidates.push(definition)
    for (const alias of ctx.includedTools ?? [])
      if (alias !== name && resolveToolAlias(alias) === name) candidates.push({ ...definition, name: alias })
  }
  if (ctx.experiments?.customTools) candidates.push(...(ctx.customTools ?? []))
  candidates.push(...(ctx.runtimeTools ?? []))
  for (const info of ctx.mcpTools ?? []) candidates.push(mcpToolDefinition(info))
  return candidates
}

/** The tools offered to the model for one request, in catalog order. */
export function filterToolsForMode(ctx: ToolAccessContext): ToolDefinition[] {
  return candidateTools(ctx).filter((tool) => isToolOffered(tool.name, ctx))
}

export type ToolValidationFailure = 'unknown_tool' | 'not_allowed' | 'invalid_arguments' | 'file_restricted'

export type ToolValidation =
  | { ok: true; name: string; originalName: string; definition: ToolDefinition; params: Record<string, unknown> }
  | { ok: false; reason: ToolValidationFailure; message: string }

/** Drop top-level nulls: models in strict mode send null for an optional parameter. */
const withoutNulls = (args: unknown): unknown =>
  args && typeof args === 'object' && !Array.isArray(args)
    ? Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null))
    : args

const jsonKind = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`

/** Each issue as the model can act on it: missing, of the wrong type (saying what was sent), or unknown. */
function describeArgumentError(tool: string, args: unknown, error: z.ZodError): string {
  if (!args || typeof args !== 'object' || Array.isArray(args))
    return `Invalid arguments for tool '${tool}': the arguments must be a JSON object of named parameters, not ${jsonKind(args)}. Please retry with complete arguments.`
  const lines = error.issues.map((issue) => {
    const key = issue.path.join('.')
    if (issue.code === 'invalid_type' && issue.input === undefined)
      return `Missing value for required parameter '${key}'.`
    if (issue.code === 'invalid_type')
      return `Invalid value for '${key}': expected ${issue.expected}, got ${jsonKind(issue.input)}.`
    if (issue.code === 'unrecognized_keys') return `Unknown parameter(s): ${issue.keys.join(', ')}.`
    return `Invalid value for '${key}': ${issue.message}.`
  })
  return `Invalid arguments for tool '${tool}': ${lines.join(' ')} Please retry with complete arguments.`
}

/** A tool name as echoed back: a runaway name is cut, not repeated to the model in full. */
const shownName = (name: string): string => (name.length > 80 ? `${name.slice(0, 80)}…` : name)

const modeLabel = (ctx: ToolAccessContext, modeSlug: string): string => ctx.mode?.slug ?? modeSlug

/** The name half of validation: unknown tool, or not offered in this mode (disabled, not in groups). */
export function checkToolAccess(
  name: string,
  ctx: ToolAccessContext,
  modeSlug = ctx.mode?.slug ?? ''
): Extract<ToolValidation, { ok: false }> | undefined {
  const available = () =>
    filterToolsForMode(ctx)
      .map((tool) => tool.name)
      .join(', ')
  if (!isValidToolName(name, ctx))
    return {
      ok: false,
      reason: 'unknown_tool',
      message: `Unknown tool "${shownName(name)}". This tool does not exist. Please use one of the available tools: ${available()}.`
    }
  const resolved = resolveToolAlias(name)
  const excludedForModel = (ctx.excludedTools ?? []).some((tool) => resolveToolAlias(tool) === resolved)
  if (excludedForModel && isToolAllowedForMode(name, ctx)) {
    // Not the mode's doing: this model gets another tool for the job (apply_patch for GPT models).
    const instead = (ctx.includedTools ?? []).filter((tool) => isToolOffered(tool, ctx))
    return {
      ok: false,
      reason: 'not_allowed',
      message: `Tool "${name}" is not part of this model's tool set (this is not a restriction of the ${modeLabel(ctx, modeSlug)} mode).${
        instead.length ? ` Use ${instead.join(' or ')} instead.` : ''
      } Tools available: ${available()}.`
    }
  }
  if (!isToolOffered(name, ctx)) {
    const server = forbiddenServer(findToolDefinition(name, ctx), ctx)
    const why = isDisabled(name, ctx)
      ? ' It is disabled in settings.'
      : ctx.mcpSchemasOnDemand && isMcpToolName(name) && isValidToolName(name, ctx)
        ? ' MCP tools are loaded on demand here: find the tool with search_mcp_tools, then call it with use_mcp_tool.'
        : server !== undefined
          ? ` The ${modeLabel(ctx, modeSlug)} mode may not use the MCP server "${server}".`
          : ''
    return {
      ok: false,
      reason: 'not_allowed',
      message: `Tool "${name}" is not allowed in ${modeLabel(ctx, modeSlug)} mode.${why} Tools available in this mode: ${available()}.`
    }
  }
  return undefined
}

/**
 * Validate one model tool call: known and offered in this mode, arguments valid by the tool's zod
 * schema, every edited path within the mode's file restriction. Errors are the text the model
 * reads as an `is_error` tool result.
 */
export function validateToolUse(
  name: string,
  args: unknown,
  ctx: ToolAccessContext,
  modeSlug = ctx.mode?.slug ?? ''
): ToolValidation {
  const refused = checkToolAccess(name, ctx, modeSlug)
  if (refused) return refused
  const mcpInfo = isMcpToolName(name) && ctx.mcpTools ? findMcpTool(name, ctx.mcpTools) : undefined
  const definition = (candidateTools(ctx).find((tool) => tool.name === name) ??
    (mcpInfo && mcpToolDefinition(mcpInfo))) as ToolDefinition
  const input = withoutNulls(args ?? {})
  // reportInput: an issue carries the value sent, so a wrong type is not mistaken for a missing one.
  const parsed = definition.params.safeParse(input, { reportInput: true })
  if (!parsed.success)
    return { ok: false, reason: 'invalid_arguments', message: describeArgumentError(name, input, parsed.error) }
  const params = parsed.data as Record<string, unknown>
  const restriction = editRestriction(name, definition, params, ctx)
  if (restriction) return { ok: false, reason: 'file_restricted', message: restriction.message }
  return { ok: true, name: mcpInfo ? definition.name : resolveToolAlias(name), originalName: name, definition, params }
}

function editRestriction(
  name: string,
  definition: ToolDefinition,
  params: Record<string, unknown>,
  ctx: ToolAccessContext
): FileRestrictionError | undefined {
  if (definition.group !== 'edit' || !ctx.mode || !definition.writePaths) return undefined
  const entry = ctx.mode.groups.find((group) => groupName(group) === 'edit')
  const options = entry ? groupOptions(entry) : undefined
  if (!options?.fileRegex) return undefined
  try {
    checkFileRestriction(ctx.mode, options, name, definition.writePaths(params))
    return undefined
  } catch (error) {
    if (error instanceof FileRestrictionError) return error
    throw error
  }
}
