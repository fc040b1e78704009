import type { ApprovalKind } from '../../../shared/agent/events'
import type { ChangeDecision, ChangeView, SuggestedRule } from '../../../shared/contract/approvals'
import type { ModelProvider, ModelToolSpec, ModelUsage } from '../providers/types'
import type { ToolDefinition } from '../../../shared/tools/types'
import type { CommandRunPlan } from '../../../shared/policy/run-plan'
import type { ProposedChange } from '../workspace/types'
import type { AnyToolExecutor, FullToolContext } from './tool-types'
import type { SandboxPlan } from '../../../shared/policy/sandbox'

/**
 * What the loop needs from the other parts of the core, as narrow interfaces. `wiring.ts` builds
 * them from the real catalog, policy, workspace, terminal and providers; the loop knows none of
 * those modules directly, so each can change behind its port.
 */

/** A mode as the prompt and the loop see it. */
export interface LoopMode {
  slug: string
  name: string
  roleDefinition: string
  whenToUse?: string
  customInstructions?: string
}

export type ValidatedCall =
  { ok: true; name: string; params: unknown; definition: ToolDefinition } | { ok: false; error: string }

export interface PolicyVerdict {
  decision: 'allow' | 'ask' | 'deny'
  rule: string
  reason: string
  /** For "always allow in this mode" on an ask. */
  suggestedRule?: SuggestedRule
  /** A command's sandbox plan (sandboxed or not), decided with the verdict; the executor carries it out. */
  run?: SandboxPlan
  /** An allowed command: what runs (see shared/policy/run-plan.ts); the executor runs exactly this. */
  plan?: CommandRunPlan
}

export interface CallContext {
  taskId: string
  mode: string
  workspace: string
}

/** The catalog and the policy: one predicate offers tools and validates calls. */
export interface ToolGate {
  modes(): LoopMode[]
  mode(slug: string): LoopMode | undefined
  /** `model` selects per-model tool customisation (e.g. apply_patch for GPT models). */
  toolsForMode(mode: string, model?: string): ModelToolSpec[]
  validate(name: string, input: unknown, mode: string, model?: string): ValidatedCall
  /** The definition a tool name stands for (built-in, alias or registered at run time). */
  definition(name: string): ToolDefinition | undefined
  decide(call: { name: string; params: unknown; definition?: ToolDefinition }, ctx: CallContext): Promise<PolicyVerdict>
  /** What the MCP tool schemas of a mode cost, and whether that is over the budget (they go on demand). */
  mcpSchemaCost?(slug: string): { tokens: number; budget: number; onDemand: boolean } | undefined
  /** Identical consecutive calls past the limit return false (the loop then asks). */
  repetitionCheck(taskId: string, name: string, params: unknown): boolean
  resetRepetition(taskId: string): void
  /** Saves a confirmed "always allow" rule to the mode. */
  /** `taskId`: the task whose approval saves it (a loopback origin is allowed in that task only). */
  saveRule(mode: string, rule: unknown, taskId?: string): Promise<void>
  limits(mode: string): LoopLimits
  /** One line for the approval card. */
  summarize?(tool: string, params: unknown): string
  /** Auto-answer delay for follow-up questions when the mode allows it; null = wait for the user. */
  followupAutoAnswerMs(mode: string, workspace: string): number | null
}

export interface LoopLimits {
  mistakeLimit: number
  maxRequests: number | null
  maxCostUsd: number | null
}

export interface ToolRunContext {
  taskId: string
  /** The call being run: a sandboxed command's network ask is shown on its card. */
  callId?: string
  /** Names the task's terminals. */
  taskTitle?: string
  workspace: string
  mode: string
  signal: AbortSignal
  modelSupportsImages: boolean
  /** The run plan of an auto-approved command (absent when the user approved it: it runs as written). */
  plan?: CommandRunPlan
  /** Progress of a long call (MCP), shown on the tool card. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
  /** The live tail of a running command's output, for its card. */
  onOutput?: (output: { tail: string; lines: number }) => void
  /** The policy's run plan for this call's command (see PolicyVerdict.run). */
  commandPlan?: SandboxPlan
}

/** Every tool's executor, and the services a call runs against. */
export interface ToolPort {
  executor(name: string): AnyToolExecutor | undefined
  /** The workspace and the task's terminal for one call. */
  context(run: ToolRunContext): Promise<FullToolContext>
}

export interface StageContext {
  taskId: string
  callId: string
  toolName: string
  workspace: string
  /** Ids of this call's proposals that were never reviewed (the app stopped): reused in order. */
  reuseIds?: readonly string[]
}

/** Edit tools produce staged proposals; the review (or the policy's allow) decides what is written. */
export interface EditPort {
  /** Stages what an edit tool proposed, for the review (or the policy's allow) to decide. */
  stage(changes: readonly ProposedChange[], ctx: StageContext): Promise<ChangeView[]>
  /** Writes the accepted part; the text tells the model what was written and what the user changed. */
  accept(
    changeId: string,
    decision: Omit<ChangeDecision, 'changeId'>,
    auto?: boolean
  ): Promise<{ change: ChangeView; text: string; ok: boolean }>
  reject(changeId: string): Promise<ChangeView>
  list(taskId: string): ChangeView[]
  /** Stages the undoing of an accepted change as a proposal to review (throws when it cannot be undone). */
  stageRevert(taskId: string, changeId: string): Promise<ChangeView>
  /** Whether a pending change's file changed on disk since the proposal (null: unchanged). */
  drift(changeId: string): Promise<{ conflict: boolean; message: string } | null>
}

export interface ModelInfo {
  contextWindow: number | null
  maxOutputTokens: number
  supportsImages: boolean
  costUsd(usage: ModelUsage): number | null
}

export interface ProviderPort {
  /** The provider and model for a task, built from settings (or CLI flags). */
  provider: ModelProvider
  model: string
  info: ModelInfo
}

export interface EnvironmentPort {
  /** A recursive listing of the workspace for the first turn. */
  listWorkspace(workspace: string, signal: AbortSignal): Promise<string>
  /** Recent terminal state of the task (running commands, last exit codes); empty when none. */
  terminalSummary(taskId: string): string
  /** Stops everything the task started (commands, background processes). */
  disposeTask?(taskId: string): Promise<void>
  /** A run finished, was cancelled or failed: closes what lives only for the run (the task's browser). */
  endRun?(taskId: string): Promise<void>
}

export type { ApprovalKind }
