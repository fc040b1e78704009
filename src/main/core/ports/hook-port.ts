// What the loop needs of the user's hooks; the hook service (core/hooks) implements it.
import type { PolicyAnswer } from '../../../shared/hooks/decide'

/** Who a hook runs for: the task, its mode and workspace. */
export interface HookScope {
  taskId: string
  mode: string
  workspace: string
  signal?: AbortSignal
}

export interface ToolCallFacts {
  callId: string
  tool: string
  params: unknown
}

/** Text for the user about hooks that failed, hung or could not be read (shown in the chat). */
export type HookReports = string[]

/** The user's programs at four moments of a task (see README "Hooks"). */
export interface HookPort {
  /** The policy's answer after the hooks: the same when no hook changed it (its reason may say a hook's allow could not lift it). */
  preToolUse(
    scope: HookScope,
    call: ToolCallFacts,
    policy: PolicyAnswer
  ): Promise<{ verdict: PolicyAnswer; reports: HookReports }>
  postToolUse(
    scope: HookScope,
    call: ToolCallFacts,
    response: { text: string; isError: boolean }
  ): Promise<{ notes: string[]; reports: HookReports }>
  userPromptSubmit(
    scope: HookScope,
    prompt: string
  ): Promise<{ blocked?: string; context: string[]; reports: HookReports }>
  stop(
    scope: HookScope,
    facts: { result: string; stopHookActive: boolean }
  ): Promise<{ keepGoing?: string; reports: HookReports }>
}
