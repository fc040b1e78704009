import { resolve } from 'node:path'
import type { ModelToolSpec } from '../providers/types'
import type { ResolvedMode } from '../../../shared/modes/schema'
import {
  createRepetitionDetector,
  decide,
  effectiveCaps,
  effectiveAutoApprove,
  filterToolsForMode,
  findToolDefinition,
  followupAutoAnswerMs,
  isLoopbackOrigin,
  isOutsideSandboxRule,
  webOriginOf,
  lexicalPathFacts,
  suggestNarrowestRule,
  validateToolUse,
  type PathFacts,
  type PolicyContext,
  type PolicyDecision,
  type RepetitionDetector,
  type ToolAccessContext
} from '../../../shared/policy'
import type { CommandAnalysis } from '../../../shared/policy/shell/analyze'
import { toolSpec } from '../../../shared/tools/json-schema'
import type { ToolDefinition } from '../../../shared/tools/types'
import type { GlobalPolicy } from '../settings/settings-schema'
import type { Workspace } from '../workspace/types'
import type { McpPort } from '../mcp/mcp-port'
import { mcpSchemaTokens } from '../mcp/schema-budget'
import type { SandboxStatus } from '../../../shared/sandbox/status'
import { modelToolPreferences, type ModelToolPreferences } from './model-tools'
import { findRepositoryCodeKey } from './repository-git-config'
import type { LoopLimits, LoopMode, PolicyVerdict, ToolGate, ValidatedCall } from '../ports/loop-ports'

export interface PolicyGateDeps {
  /** Every mode in force (built-in, global, project), resolved by the mode store. */
  modes: () => readonly ResolvedMode[]
  policy: () => GlobalPolicy
  /** Whether the user trusts this workspace (project allow rules and auto-approve need it). */
  isTrusted: (workspaceRoot: string) => boolean
  /** The workspace layer, for realpath facts and ignore rules; absent → lexical checks only. */
  workspace?: (workspaceRoot: string) => Promise<Workspace | undefined>
  /** Per-model tool customisation (default: `modelToolPreferences`, apply_patch for GPT models). */
  modelTools?: (model: string | undefined) => ModelToolPreferences
  /** Saves confirmed "always allow" command rules into the mode. */
  addAllowRules?: (modeSlug: string, rules: string[]) => Promise<void>
  /** Saves a confirmed "always open pages on this origin" into the mode's browser URL allow rules. */
  addBrowserOrigin?: (modeSlug: string, origin: string) => Promise<void>
  /** Definitions registered at run time (MCP servers' tools, custom tools). */
  runtimeTools?: () => readonly ToolDefinition[]
  /** The MCP servers: which a mode may use, which have resources, per-tool always-allow. */
  mcp?: McpPort
  /** Writes "always allow" for one MCP tool into its server's config file. */
  allowMcpTool?: (server: string, tool: string) => Promise<void>
  /** Tokens of MCP tool schemas a mode sends up front; past it they go on demand (search_mcp_tools). */
  mcpSchemaBudget?: () => number
  /** Whether the OS sandbox can start here (asked only for a mode with a sandbox). */
  sandboxStatus?: () => Promise<SandboxStatus>
}

/** Asks an allow rule could not lift: what the repository's git config or the shell does. */
const NO_RULE_HELPS = new Set(['git-plan', 'repository-git-config'])

/**
 * In a workspace that is not trusted, an allowed command whose git would run in a repository
 * whose config may run a program Modus cannot turn off asks, naming the key.
 */
async function withoutRepositoryCode(
  verdict: PolicyDecision,
  root: string,
  cwd: string | undefined
): Promise<PolicyDecision> {
  if (verdict.decision !== 'allow' || !verdict.plan || verdict.plan.git.length === 0) return verdict
  const found = await findRepositoryCodeKey(resolve(root, cwd ?? '.'), verdict.plan.git)
  if (!found) return verdict
  return {
    decision: 'ask',
    rule: 'repository-git-config',
    reason: `This workspace is not trusted, and the git config of its repository (${found.dir}) sets '${found.key}', which can make git run a program Modus cannot turn off; its git commands ask until the workspace is trusted`,
    // Approved, it still runs where the policy placed it.
    ...(verdict.run ? { run: verdict.run } : {})
  }
}

/** Rounds of disk questions: a line's paths, then the folders they lead to; a bound in case of a loop. */
const MAX_DISK_ROUNDS = 4

interface McpAllowRule {
  mcpAlwaysAllow: { server: string; tool: string }
}

interface AllowRule {
  commandAllow: string[]
}

interface BrowserAllowRule {
  browserAllow: string
  /** A loopback origin: allowed in the task that approved it, never in the mode. */
  thisTask?: true
}

/** The catalog and the pure policy behind the loop's ToolGate port. */
export function createPolicyGate(deps: PolicyGateDeps): ToolGate {
  const detectors = new Map<string, RepetitionDetector>()
  /** Loopback origins a task's user allowed "always" (in memory: after a restart they ask again). */
  const taskOrigins = new Map<string, Set<string>>()
  /** A page on this machine the task's user allowed before: its ask is lifted, nothing else. */
  const allowedInTask = (verdict: PolicyVerdict, taskId: string, origin: string | undefined): PolicyVerdict =>
    verdict.decision === 'ask' && origin && taskOrigins.get(taskId)?.has(origin)
      ? { decision: 'allow', rule: `browser-task-allow:${origin}`, reason: `You allowed ${origin} in this task` }
      : verdict
  const resolved = (slug: string): ResolvedMode | undefined => deps.modes().find((mode) => mode.slug === slug)
  const modelTools = deps.modelTools ?? modelToolPreferences
  const runtimeTools = () => deps.runtimeTools?.() ?? []
  /** What the server tools this mode may use cost in schema tokens, against the budget. */
  const mcpSchemaCost = (slug: string) => {
    if (!deps.mcp || !deps.mcpSchemaBudget) return undefined
    const tokens = mcpSchemaTokens(deps.mcp.toolsFor(slug))
    const budget = deps.mcpSchemaBudget()
    return { tokens, budget, onDemand: tokens > budget }
  }
  const mcpSchemasOnDemand = (slug: string): boolean => mcpSchemaCost(slug)?.onDemand ?? false
  const accessContext = (slug: string, model?: string): ToolAccessContext => ({
    mode: resolved(slug),
    ...modelTools(model),
    runtimeTools: runtimeTools(),
    // The server tools come as runtime definitions: an empty list says MCP names are known, not guessed.
    // A tool of a server the mode may not use is known, and refused as not allowed in the mode.
    ...(deps.mcp
      ? {
          mcpTools: [],
          mcpServersWithResources: deps.mcp.hasResourcesFor(slug),
          mcpServerAllowed: (server: string) => deps.mcp!.serverAllowed(slug, server),
          mcpSchemasOnDemand: mcpSchemasOnDemand(slug)
        }
      : {})
  })
  const definitionOf = (name: string) => findToolDefinition(name, { runtimeTools: runtimeTools() })
  const toolCache = new Map<string, { key: string; tools: ModelToolSpec[] }>()

  /** What the disk says of a path the policy asked about; `~` is the user's home, outside. */
  const diskFacts = async (workspace: Workspace, path: string): Promise<PathFacts> => {
    if (path === '~' || path.startsWith('~')) return lexicalPathFacts(path, workspace.root)
    const info = await workspace.resolve(path).catch(() => null)
    // A path the workspace refuses to resolve is judged as the riskiest kind: outside.
    if (!info) return { outsideWorkspace: true }
    return { outsideWorkspace: info.outsideWorkspace, relPath: info.outsideWorkspace ? undefined : info.display }
  }

  /**
   * The pure policy asks its path questions synchronously; the disk answers asynchronously. Decide,
   * note what was asked without an answer, fetch those answers (realpath facts, folders holding
   * ignored entries), and decide again, until nothing is left unanswered. Every path a call or a
   * command line names is thus judged by where it really leads.
   */
  const decideOnDisk = async (
    workspace: Workspace | undefined,
    root: string,
    run: (disk: Pick<PolicyContext, 'resolvePath' | 'ignoredWithin'>) => PolicyDecision
  ): Promise<PolicyDecision> => {
    if (!workspace) return run({})
    const facts = new Map<string, PathFacts>()
    const within = new Map<string, boolean>()
    for (let round = 0; ; round++) {
      const unknownPaths = new Set<string>()
      const unknownDirs = new Set<string>()
      const verdict = run({
        resolvePath: (path) => facts.get(path) ?? (unknownPaths.add(path), lexicalPathFacts(path, root)),
        // Unanswered yet: assume the worst until the disk says otherwise.
        ignoredWithin: (rel) => within.get(rel) ?? (unknownDirs.add(rel), true)
      })
      if ((unknownPaths.size === 0 && unknownDirs.size === 0) || round === MAX_DISK_ROUNDS) return verdict
      for (const path of unknownPaths) facts.set(path, await diskFacts(workspace, path))
      for (const rel of unknownDirs) within.set(rel, await workspace.ignoredWithin(rel).catch(() => true))
    }
  }

  const gate: ToolGate = {
    modes: () => deps.modes().map(toLoopMode),
    mode: (slug) => {
      const mode = resolved(slug)
      return mode ? toLoopMode(mode) : undefined
    },
    toolsForMode(slug, model) {
      const ctx = accessContext(slug, model)
      const key = JSON.stringify([
        ctx.mode,
        ctx.includedTools,
        ctx.excludedTools,
        ctx.runtimeTools?.map((tool) => tool.name),
        ctx.mcpServersWithResources,
        ctx.mcpSchemasOnDemand
      ])
      const cacheKey = `${slug}\u0000${model ?? ''}`
      const cached = toolCache.get(cacheKey)
      if (cached && cached.key === key) return cached.tools
      const tools = filterToolsForMode(ctx).map(toolSpec)
      toolCache.set(cacheKey, { key, tools })
      return tools
    },
    validate(name, input, slug, model): ValidatedCall {
      const result = validateToolUse(name, input, accessContext(slug, model), slug)
      if (!result.ok) return { ok: false, error: result.message }
      return { ok: true, name: result.name, params: result.params, definition: result.definition }
    },
    definition: definitionOf,
    async decide(call, ctx): Promise<PolicyVerdict> {
      const mode = resolved(ctx.mode)
      if (!mode) return { decision: 'ask', rule: 'unknown-mode', reason: `The mode "${ctx.mode}" no longer exists` }
      const params = (call.params ?? {}) as Record<string, unknown>
      const definition = call.definition ?? definitionOf(call.name)
      const workspace = await deps.workspace?.(ctx.workspace)
      const root = workspace?.root ?? ctx.workspace
      const policy = deps.policy()
      const trusted = deps.isTrusted(ctx.workspace)
      // A command runs in a sandbox when its mode has one, and in any mode in an untrusted workspace.
      const sandbox =
        definition?.effect === 'command' && (mode.sandbox?.enabled || !trusted)
          ? await deps.sandboxStatus?.()
          : undefined
      // One parse of a command line for every round of decideOnDisk and the rule suggestion.
      const parsedCommands = new Map<string, CommandAnalysis>()
      const decided = await decideOnDisk(workspace, root, (disk) =>
        decide(
          { name: call.name, params, definition },
          {
            mode,
            trusted,
            workspaceRoot: root,
            parsedCommands,
            globalCommandRules: policy.commandRules,
            ...disk,
            isIgnored: workspace ? (rel, isDirectory) => workspace.isIgnored(rel, isDirectory) : undefined,
            mcpAlwaysAllow: deps.mcp ? (server, tool) => deps.mcp!.isAlwaysAllowed(server, tool) : undefined,
            sandbox:
              sandbox &&
              (sandbox.available ? { available: true } : { available: false, reason: sandbox.reason, fix: sandbox.fix })
          }
        )
      )
      const verdict = trusted
        ? decided
        : await withoutRepositoryCode(decided, root, definition?.commandLine?.(params)?.cwd)
      const out: PolicyVerdict = {
        decision: verdict.decision,
        rule: verdict.rule,
        reason: verdict.reason,
        ...(verdict.run ? { run: verdict.run } : {}),
        ...(verdict.plan ? { plan: verdict.plan } : {})
      }
      const pageOrigin = webOriginOf(definition?.browserUrl?.(params))
      if (ctx.taskId && isLoopbackOrigin(pageOrigin)) {
        const lifted = allowedInTask(out, ctx.taskId, pageOrigin)
        if (lifted !== out) return lifted
      }
      const target =
        verdict.decision === 'ask' && definition?.effect === 'mcp' ? definition.mcpTarget?.(params) : undefined
      if (target?.tool && deps.allowMcpTool) {
        // The narrowest entry: this one tool in its server's alwaysAllow (a resource read has none).
        const rule: McpAllowRule = { mcpAlwaysAllow: { server: target.server, tool: target.tool } }
        out.suggestedRule = {
          rule,
          label: `Always allow tool '${target.tool}' of MCP server '${target.server}'`,
          savedIn: deps.mcp?.configFile(target.server)
        }
      } else if (verdict.rule === 'foreign-origin' && deps.addBrowserOrigin) {
        // The narrowest entry: the page's origin in the mode's URL allow rules.
        const origin = webOriginOf(definition?.browserUrl?.(params))
        if (origin && isLoopbackOrigin(origin)) {
          // Another task's localhost:3000 is another server (each isolated task has its own ports).
          const rule: BrowserAllowRule = { browserAllow: origin, thisTask: true }
          out.suggestedRule = { rule, label: `Always open pages on ${origin} in this task` }
        } else if (origin) {
          const rule: BrowserAllowRule = { browserAllow: origin }
          out.suggestedRule = { rule, label: `Always open pages on ${origin} in ${mode.name} mode` }
        }
      } else if (
        verdict.decision === 'ask' &&
        !isOutsideSandboxRule(verdict.rule) &&
        !NO_RULE_HELPS.has(verdict.rule)
      ) {
        // (A command going outside the sandbox always asks: an allow rule would be a button that does nothing.)
        const suggestion = suggestNarrowestRule({ name: call.name, params, definition }, undefined, parsedCommands)
        if (suggestion.allow.length > 0) {
          const rule: AllowRule = { commandAllow: suggestion.allow }
          out.suggestedRule = {
            rule,
            label: `Always allow ${suggestion.allow.map((r) => `"${r}"`).join(', ')} in ${mode.name} mode`
          }
        }
      }
      return out
    },
    mcpSchemaCost,
    repetitionCheck(taskId, name, params) {
      const limit = deps.policy().repetitionLimit
      let detector = detectors.get(taskId)
      if (!detector || detector.limit !== limit) detectors.set(taskId, (detector = createRepetitionDetector(limit)))
      return detector.check({ name, params }).allowExecution
    },
    resetRepetition: (taskId) => detectors.get(taskId)?.reset(),
    async saveRule(slug, rule, taskId) {
      const mcpRule = (rule as Partial<McpAllowRule> | null)?.mcpAlwaysAllow
      if (mcpRule && typeof mcpRule.server === 'string' && typeof mcpRule.tool === 'string') {
        if (!deps.allowMcpTool) throw new Error('MCP servers are not available here.')
        return deps.allowMcpTool(mcpRule.server, mcpRule.tool)
      }
      const browserOrigin = (rule as Partial<BrowserAllowRule> | null)?.browserAllow
      if (browserOrigin !== undefined) {
        if (webOriginOf(browserOrigin) !== browserOrigin)
          throw new Error('The rule to save is not one the policy suggested.')
        if (isLoopbackOrigin(browserOrigin)) {
          if (!taskId) throw new Error('A page on this machine is allowed per task: no task was named.')
          const origins = taskOrigins.get(taskId) ?? new Set<string>()
          taskOrigins.set(taskId, origins.add(browserOrigin))
          return
        }
        if (!deps.addBrowserOrigin) throw new Error('Saving rules to a mode is not available here.')
        return deps.addBrowserOrigin(slug, browserOrigin)
      }
      const allow = (rule as Partial<AllowRule> | null)?.commandAllow
      if (!Array.isArray(allow) || allow.length === 0 || !allow.every((r) => typeof r === 'string' && r.trim())) {
        throw new Error('The rule to save is not one the policy suggested.')
      }
      if (!deps.addAllowRules) throw new Error('Saving rules to a mode is not available here.')
      await deps.addAllowRules(slug, allow)
    },
    limits(slug): LoopLimits {
      const policy = deps.policy()
      // A project mode's caps apply even before trust, and only where they are lower (effectiveCaps).
      const mode = resolved(slug)
      const globalCaps = { maxRequests: policy.maxRequests ?? undefined, maxCostUsd: policy.maxCostUsd ?? undefined }
      const caps = mode ? effectiveCaps(mode, globalCaps) : globalCaps
      return {
        mistakeLimit: policy.mistakeLimit,
        maxRequests: caps.maxRequests ?? null,
        maxCostUsd: caps.maxCostUsd ?? null
      }
    },
    summarize(tool, params) {
      const definition = definitionOf(tool)
      // The model's raw arguments: a call missing its path says so instead of "Read undefined".
      const parsed = definition?.params.safeParse(params)
      if (definition && !parsed?.success) return `${tool} (invalid arguments)`
      try {
        return definition ? definition.summarize(parsed?.data) : tool
      } catch {
        return tool
      }
    },
    followupAutoAnswerMs(slug, workspaceRoot) {
      const mode = resolved(slug)
      return mode ? followupAutoAnswerMs(effectiveAutoApprove(mode, deps.isTrusted(workspaceRoot))) : null
    }
  }
  return gate
}

const toLoopMode = (mode: ResolvedMode): LoopMode => ({
  slug: mode.slug,
  name: mode.name,
  roleDefinition: mode.roleDefinition,
  whenToUse: mode.whenToUse,
  customInstructions: mode.customInstructions
})
