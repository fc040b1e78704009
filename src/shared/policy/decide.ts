import { decideBrowser } from './browser'
import { mcpToolDefinition, parseMcpToolName } from '../tools/mcp'
import { getBuiltInTool } from '../tools/catalog'
import type { ToolDefinition } from '../tools/types'
import type { AutoApprove, CommandRules, ResolvedMode } from '../modes/schema'
import { grantsNeedTrust, groupName, groupOptions } from '../modes/schema'
import { decideCommand, type Decision, type RuleSet } from './commands'
import { decideCommandPaths } from './command-paths'
import { matchesFileRegex } from '../modes/file-regex'
import { isProtectedPath, lexicalPathFacts, normalizePosix, type PathFacts } from './paths'
import {
  describeSandbox,
  effectiveSandbox,
  outsideSandbox,
  UNTRUSTED_DEFAULT_SANDBOX,
  UNTRUSTED_UNSANDBOXED,
  type SandboxPlan,
  type EffectiveSandbox,
  type SandboxAvailability
} from './sandbox'
import { asWrittenPlan, planCommand, type CommandRunPlan } from './run-plan'
import { analyzeCommand, type CommandAnalysis } from './shell/analyze'

export interface PolicyCall {
  /** Tool name (aliases are resolved here). */
  name: string
  /** Arguments after validation. */
  params: Record<string, unknown>
  /** The tool's definition (runtime-built tools pass theirs); looked up by name when absent. */
  definition?: ToolDefinition
}

export interface PolicyContext {
  mode: ResolvedMode
  /** Whether the user trusts this workspace: project-file allow rules and auto-approve need it. */
  trusted: boolean
  workspaceRoot: string
  /** The user's global command rules (settings); a mode's own rules come with the mode. */
  globalCommandRules?: CommandRules
  /** Facts about a path the model named, realpath-resolved by the core; lexical when absent. */
  resolvePath?: (path: string) => PathFacts
  /** The ignore-file matcher (.modusignore/.rooignore) over workspace-relative paths. */
  isIgnored?: (relPath: string, isDirectory?: boolean) => boolean
  /** Whether a directory holds ignored entries (recursive reads and globs in commands). */
  ignoredWithin?: (relDir: string) => boolean
  /** Per-tool "always allow" from the MCP server config. */
  mcpAlwaysAllow?: (server: string, tool: string) => boolean
  /** Whether the OS sandbox can start here; only read for a mode with a sandbox (absent: unknown, treated as unavailable). */
  sandbox?: SandboxAvailability
  /**
   * Command lines already parsed, by text: a caller that decides the same call again (answering
   * path questions from the disk) passes one map so the line is parsed once.
   */
  parsedCommands?: Map<string, CommandAnalysis>
}

export interface PolicyDecision {
  decision: Decision
  /** What produced the decision, for "why was I asked". */
  rule: string
  reason: string
  /** Follow-up questions answered automatically: wait this long, then pick the first suggestion. */
  autoAnswerAfterMs?: number
  /** A command that may run (allow or ask): where it runs, sandboxed or not. The core runs exactly this. */
  run?: SandboxPlan
  /** A command: what runs once allowed or approved (the text, names to check, git overrides; see run-plan.ts). */
  plan?: CommandRunPlan
}

const DEFAULT_FOLLOWUP_TIMEOUT_MS = 60_000

/** A project mode's auto-approve counts only in a trusted workspace. */
export function effectiveAutoApprove(mode: ResolvedMode, trusted: boolean): AutoApprove {
  if (grantsNeedTrust(mode) && !trusted) return {}
  return mode.autoApprove ?? {}
}

const result = (decision: Decision, rule: string, reason: string): PolicyDecision => ({ decision, rule, reason })

function toggle(on: boolean | undefined, key: string, what: string): PolicyDecision {
  return on
    ? result('allow', `auto-approve.${key}`, `${what} are auto-approved in this mode`)
    : result('ask', 'default-ask', `${what} need approval in this mode`)
}

function factsOf(path: string, ctx: PolicyContext): PathFacts {
  return ctx.resolvePath ? ctx.resolvePath(path) : lexicalPathFacts(path, ctx.workspaceRoot)
}

function decideRead(paths: readonly string[], ctx: PolicyContext, auto: AutoApprove): PolicyDecision {
  let outside: string | undefined
  for (const path of paths) {
    const facts = factsOf(path, ctx)
    if (facts.outsideWorkspace) outside ??= path
    else if (facts.relPath && ctx.isIgnored?.(facts.relPath))
      return result('deny', 'ignored-path', `'${path}' is excluded by the ignore file`)
  }
  if (outside)
    return auto.readOutsideWorkspace
      ? result(
          'allow',
          'auto-approve.readOutsideWorkspace',
          `Reading '${outside}' outside the workspace is auto-approved in this mode`
        )
      : result('ask', 'outside-workspace', `'${outside}' is outside the workspace`)
  return toggle(auto.read, 'read', 'Reads')
}

/** Writes: ignored → deny; protected, outside or beyond the mode's files → ask whatever the toggles. */
function decideWrites(
  paths: readonly { path: string; expands?: boolean }[],
  ctx: PolicyContext,
  auto: AutoApprove,
  what = 'Edits'
): PolicyDecision | undefined {
  let ask: PolicyDecision | undefined
  for (const { path, expands } of paths) {
    if (expands) {
      ask ??= result('ask', 'write-target-unknown', `The write target '${path}' is only known at run time`)
      continue
    }
    const facts = factsOf(path, ctx)
    if (!facts.outsideWorkspace && facts.relPath && ctx.isIgnored?.(facts.relPath))
      return result('deny', 'ignored-path', `'${path}' is excluded by the ignore file`)
    if (facts.outsideWorkspace)
      ask ??= result('ask', 'outside-workspace-write', `'${path}' is outside the workspace; writes there always ask`)
    else if (isProtectedPath(facts.relPath ?? path))
      ask ??= result('ask', 'protected-path', `'${path}' is a protected file; writing it always asks`)
    else {
      const restriction = modeFileRestriction(ctx.mode, facts.relPath ?? path)
      if (restriction) ask ??= restriction
    }
  }
  if (ask) return ask
  return paths.length > 0 ? toggle(auto.edit, 'edit', what) : undefined
}

function modeFileRestriction(mode: ResolvedMode, relPath: string): PolicyDecision | undefined {
  const entry = mode.groups.find((group) => groupName(group) === 'edit')
  if (!entry)
    return result(
      'ask',
      'mode-has-no-edit',
      `${mode.name} mode does not edit files; a command writing '${relPath}' needs approval`
    )
  const regex = groupOptions(entry)?.fileRegex
  if (!regex) return undefined
  return matchesFileRegex(regex, normalizePosix(relPath))
    ? undefined
    : result(
        'ask',
        'mode-file-restriction',
        `${mode.name} mode only edits files matching ${regex}; '${relPath}' does not`
      )
}

/** Rule sets in force for a mode: the mode's own (trust-gated allow) and the user's global ones. */
function commandRuleSets(ctx: PolicyContext): RuleSet[] {
  const sets: RuleSet[] = []
  if (ctx.mode.commandRules)
    sets.push({
      origin: `${ctx.mode.origin} mode '${ctx.mode.slug}'`,
      rules: ctx.mode.commandRules,
      allowApplies: !grantsNeedTrust(ctx.mode) || ctx.trusted
    })
  if (ctx.globalCommandRules) sets.push({ origin: 'global', rules: ctx.globalCommandRules, allowApplies: true })
  return sets
}

/** Command verdicts a path reason explains better (`> ~/.ssh/x` asks because it is outside). */
const PATH_SPECIFIC_RULES = new Set(['output-redirection', 'auto-approve-off', 'privileged'])

function decideExecute(
  command: string,
  cwd: string | undefined,
  ctx: PolicyContext,
  auto: AutoApprove,
  outsideRequested = false
): PolicyDecision {
  if (cwd && factsOf(cwd, ctx).outsideWorkspace)
    return result('ask', 'outside-workspace-cwd', `The command would run in '${cwd}', outside the workspace`)
  const verdict = decideCommand(command, commandRuleSets(ctx), Boolean(auto.command), parsedCommand(command, ctx))
  if (verdict.decision === 'deny') return result('deny', verdict.rule, verdict.reason)
  const paths = decideCommandPaths(verdict.analysis, {
    workspaceRoot: ctx.workspaceRoot,
    cwd,
    resolvePath: ctx.resolvePath,
    isIgnored: ctx.isIgnored,
    ignoredWithin: ctx.ignoredWithin,
    readOutsideWorkspace: auto.readOutsideWorkspace,
    writeRestriction: (relPath) => modeFileRestriction(ctx.mode, relPath)
  })
  if (paths?.decision === 'deny') return paths
  const decision = withSandbox(commandVerdict(verdict, paths), paths, ctx, auto, command, outsideRequested)
  if (decision.decision === 'allow') return withRunPlan(decision, command, verdict.analysis)
  return decision.decision === 'ask' ? { ...decision, plan: asWrittenPlan(command, verdict.analysis) } : decision
}

/** The line's analysis, parsed once per caller's map. */
function parsedCommand(command: string, ctx: PolicyContext): CommandAnalysis {
  const known = ctx.parsedCommands?.get(command)
  if (known) return known
  const analysis = analyzeCommand(command)
  ctx.parsedCommands?.set(command, analysis)
  return analysis
}

/** An allowed command carries how it runs; one whose git cannot run without the repository's config asks (still where it would run). */
function withRunPlan(decision: PolicyDecision, command: string, analysis: CommandAnalysis): PolicyDecision {
  const planned = planCommand(command, analysis)
  if (planned.ok) return { ...decision, plan: planned.plan }
  return {
    ...result('ask', planned.rule, planned.reason),
    ...(decision.run ? { run: decision.run } : {}),
    plan: asWrittenPlan(command, analysis)
  }
}

function commandVerdict(
  verdict: { decision: Decision; rule: string; reason: string },
  paths: PolicyDecision | undefined
): PolicyDecision {
  // The reason shown is the most specific one: what no rule allows first, then the path that asks.
  if (verdict.decision === 'ask' && !PATH_SPECIFIC_RULES.has(verdict.rule))
    return result('ask', verdict.rule, verdict.reason)
  if (paths) return paths
  return result(verdict.decision, verdict.rule, verdict.reason)
}

/** Asks only because no rule allows the command: what a sandboxed mode's toggle may lift. */
const NO_RULE_ALLOWS = new Set(['no-matching-rule', 'auto-approve-off'])

/** The command as an approval quotes it: one line, short. */
const quoted = (command: string): string => {
  const line = command.replace(/\s+/g, ' ').trim()
  return `\`${line.length > 80 ? `${line.slice(0, 77)}…` : line}\``
}

const unavailableWhy = (sandbox: SandboxAvailability | undefined): string =>
  sandbox?.reason ? `: ${sandbox.reason}${sandbox.fix ? ` (fix: ${sandbox.fix})` : ''}` : ''

/**
 * Where a command runs, decided here once and carried in the verdict (`run`). A mode's own sandbox
 * applies where it can start; in a workspace that is not trusted, a mode without one gets the
 * default sandbox (no network), since the folder's tests, scripts and build files are its code:
 * there a command runs unasked only inside a sandbox, and where none can start every command asks
 * and says why. Trusting the workspace lifts that. A mode's own sandbox that cannot start asks for
 * every command, unless it is on only "where available" (the built-in modes), whose rules then
 * decide as without one. Inside the sandbox, the mode's toggle allows a command that asks only
 * because no rule allows it — never a deny, an ask rule, an always-ask construct or a path that asks.
 */
function withSandbox(
  decision: PolicyDecision,
  paths: PolicyDecision | undefined,
  ctx: PolicyContext,
  auto: AutoApprove,
  command: string,
  outsideRequested: boolean
): PolicyDecision {
  if (decision.decision === 'deny') return decision
  const own = effectiveSandbox(ctx.mode, ctx.trusted)
  const sandbox = own ?? (ctx.trusted ? null : UNTRUSTED_DEFAULT_SANDBOX)
  if (!sandbox) return { ...decision, run: { sandboxed: false } }
  if (!ctx.sandbox?.available) return unsandboxable(decision, ctx, command, Boolean(own))
  const outside = outsideSandbox(ctx.mode, command, outsideRequested)
  // Outside the sandbox nothing confines it: no toggle or allow rule lifts the ask.
  if (outside) {
    const untrusted = ctx.trusted ? '' : ` This folder is not trusted: ${quoted(command)} may run its code.`
    const also = decision.decision === 'ask' ? ` Also: ${decision.reason}` : ''
    const where = own ? `the ${ctx.mode.name} mode's sandbox` : 'the sandbox'
    return {
      ...result(
        'ask',
        outside.rule,
        `This command runs outside ${where} because ${outside.why}, so it always needs approval.${untrusted}${also}`
      ),
      run: { sandboxed: false, note: `It ran outside the sandbox after approval because ${outside.why}.` }
    }
  }
  const run: SandboxPlan = { sandboxed: true, sandbox }
  const pathsAsk = paths !== undefined && paths.decision !== 'allow'
  if (decision.decision === 'ask' && NO_RULE_ALLOWS.has(decision.rule) && !pathsAsk && own && auto.sandboxedCommands)
    return {
      ...result(
        'allow',
        'auto-approve.sandboxedCommands',
        `Runs in the sandbox (${describeSandbox(sandbox)}); sandboxed commands no rule matches are auto-approved in this mode`
      ),
      run
    }
  return { ...sandboxedReason(decision, paths, command, sandbox, own !== null && Boolean(auto.sandboxedCommands)), run }
}

/** No sandbox can start here: what a command of a mode that has one (or needs the default one) does. */
function unsandboxable(
  decision: PolicyDecision,
  ctx: PolicyContext,
  command: string,
  ownSandbox: boolean
): PolicyDecision {
  const why = unavailableWhy(ctx.sandbox)
  const note = `The sandbox cannot start here${why}. This command ran unsandboxed after approval.`
  const also = decision.decision === 'ask' ? ` Also: ${decision.reason}` : ''
  if (!ctx.trusted)
    return {
      ...result(
        'ask',
        UNTRUSTED_UNSANDBOXED,
        `This folder is not trusted: ${quoted(command)} runs its code, and no sandbox can start here to confine it${why}. Every command asks until you trust the workspace.${also}`
      ),
      run: { sandboxed: false, note }
    }
  if (ownSandbox && ctx.mode.sandbox?.whereAvailable) return { ...decision, run: { sandboxed: false } }
  return {
    ...result(
      'ask',
      'sandbox-unavailable',
      `${ctx.mode.name} mode runs commands in a sandbox, but it cannot start here${why}; this command would run unsandboxed, so it needs approval`
    ),
    run: { sandboxed: false, note }
  }
}

const URL_IN_COMMAND = /\b(?:https?|ftp|wss?):\/\/([^\s/'"`:?#]+|\[[0-9a-fA-F:.]+\])(?::(\d+))?[^\s'"`]*/

/**
 * An ask of a sandboxed command names its real cause: a path the command names (not "no allow rule
 * matches" when the path is what asks), and a URL it names, whose host the sandbox asks about.
 */
function sandboxedReason(
  decision: PolicyDecision,
  paths: PolicyDecision | undefined,
  command: string,
  sandbox: EffectiveSandbox,
  toggleLifts: boolean
): PolicyDecision {
  if (decision.decision !== 'ask') return decision
  const noRule = NO_RULE_ALLOWS.has(decision.rule)
  if (paths && paths.decision === 'ask' && noRule && decision !== paths) {
    const also = toggleLifts ? '' : ` Also: ${decision.reason}.`
    return { ...paths, reason: `${paths.reason} (the sandbox does not change that).${also}` }
  }
  const url = URL_IN_COMMAND.exec(command)
  if (url && noRule) {
    const host = url[2] ? `${url[1]}:${url[2]}` : url[1]
    const network =
      sandbox.network === 'none'
        ? `its connection to ${host} would be refused (this sandbox has no network)`
        : `its connection to ${host} then asks on its own unless the mode lists the host`
    return { ...decision, reason: `${decision.reason}. It names the URL ${url[0]}: in the sandbox ${network}` }
  }
  return decision
}

/** The definition a call is judged by: the one it brings, a built-in, or one built from an MCP name. */
export function definitionOf(call: PolicyCall): ToolDefinition | undefined {
  if (call.definition) return call.definition
  const builtIn = getBuiltInTool(call.name)
  if (builtIn) return builtIn
  const mcp = parseMcpToolName(call.name)
  return mcp ? mcpToolDefinition({ server: mcp.server, name: mcp.tool }) : undefined
}

/** MCP calls ask by default; the mode's MCP toggle or the tool's `alwaysAllow` entry allows it. Reasons name server and tool. */
function decideMcp(
  definition: ToolDefinition,
  params: Record<string, unknown>,
  ctx: PolicyContext,
  auto: AutoApprove
): PolicyDecision {
  const target = definition.mcpTarget?.(params)
  const what = target
    ? target.tool
      ? `tool '${target.tool}' of MCP server '${target.server}'`
      : `resource ${typeof params.uri === 'string' ? params.uri : ''} of MCP server '${target.server}'`
    : 'MCP call'
  if (auto.mcp) return result('allow', 'auto-approve.mcp', `MCP calls are auto-approved in this mode (${what})`)
  if (target?.tool && ctx.mcpAlwaysAllow?.(target.server, target.tool))
    return result('allow', 'mcp-always-allow', `The ${what} is always allowed in the server's config`)
  return result('ask', 'default-ask', `The ${what} needs approval in this mode`)
}

/** How long a follow-up question waits before its first suggestion answers it; null = for the user. */
export function followupAutoAnswerMs(auto: AutoApprove): number | null {
  return auto.followup ? (auto.followupTimeoutMs ?? DEFAULT_FOLLOWUP_TIMEOUT_MS) : null
}

function decideTaskControl(definition: ToolDefinition, auto: AutoApprove): PolicyDecision {
  if (definition.asksUser) {
    const autoAnswerAfterMs = followupAutoAnswerMs(auto)
    return autoAnswerAfterMs !== null
      ? {
          ...result('allow', 'auto-approve.followup', 'The first suggestion is picked after a timeout'),
          autoAnswerAfterMs
        }
      : result('ask', 'default-ask', 'The question waits for your answer')
  }
  switch (definition.approvalToggle) {
    case 'modeSwitch':
      return toggle(auto.modeSwitch, 'modeSwitch', 'Mode switches')
    case 'subtasks':
      return toggle(auto.subtasks, 'subtasks', 'Subtasks')
    case undefined:
      return result('allow', 'task-state', 'Changes only the task’s own state')
  }
}

/**
 * The policy: allow, ask or deny one validated call in a mode, and which rule said so. Pure.
 * It judges the tool's effect and the paths or command line it names, never the tool's name.
 * Toggles can turn ask into allow; they never lift a deny, a protected path, a write outside the
 * workspace or an always-ask construct.
 */
export function decide(call: PolicyCall, ctx: PolicyContext): PolicyDecision {
  const definition = definitionOf(call)
  const params = call.params
  const auto = effectiveAutoApprove(ctx.mode, ctx.trusted)
  const needsApproval = result('ask', 'default-ask', `'${call.name}' needs approval`)
  switch (definition?.effect) {
    case 'read': {
      const paths = definition.readPaths?.(params) ?? ['.']
      return paths.length > 0
        ? decideRead(paths, ctx, auto)
        : result('allow', 'own-output', 'Reads only what this task produced, no workspace file')
    }
    case 'edit': {
      const paths = (definition.writePaths?.(params) ?? []).map((path) => ({ path }))
      return decideWrites(paths, ctx, auto) ?? result('ask', 'default-ask', 'Edits need approval')
    }
    case 'command': {
      const line = definition.commandLine?.(params)
      return line ? decideExecute(line.command, line.cwd, ctx, auto, line.outsideSandbox) : needsApproval
    }
    case 'mcp':
      return decideMcp(definition, params, ctx, auto)
    case 'task-control':
      return decideTaskControl(definition, auto)
    case 'browser':
      // `openedFrom`: the core's check of a navigation or request a page starts by itself (never the model's).
      return decideBrowser(
        definition.browserUrl?.(params),
        {
          mode: ctx.mode,
          trusted: ctx.trusted,
          facts: (path) => factsOf(path, ctx),
          openedFrom: typeof params.openedFrom === 'string' ? params.openedFrom : undefined
        },
        auto
      )
    case undefined:
      return needsApproval
  }
}

export interface Caps {
  maxRequests?: number
  maxCostUsd?: number
}

/**
 * The caps in force for a mode. A project file (`.modus/modes.yaml`, `.roomodes`) may lower the
 * global caps but never raise them, trusted or not; the user's own modes (global, built-in) set
 * their caps as they like. The loop pauses at these caps (`ToolGate.limits`).
 */
export function effectiveCaps(mode: Pick<ResolvedMode, 'origin' | 'autoApprove'>, globalCaps: Caps = {}): Caps {
  const own = mode.autoApprove ?? {}
  const tighten = mode.origin === 'project'
  const pick = (modeCap: number | undefined, globalCap: number | undefined): number | undefined =>
    modeCap === undefined ? globalCap : tighten && globalCap !== undefined ? Math.min(modeCap, globalCap) : modeCap
  return {
    maxRequests: pick(own.maxRequests, globalCaps.maxRequests),
    maxCostUsd: pick(own.maxCostUsd, globalCaps.maxCostUsd)
  }
}
