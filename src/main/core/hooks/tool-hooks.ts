import type { PolicyVerdict } from '../ports/loop-ports'
import type { HookPort, HookScope, ToolCallFacts } from './hook-service'

/**
 * The policy's verdict with the PreToolUse hooks applied. The run plan and sandbox placement the
 * policy decided stay as they are (a call a hook allowed runs as the policy planned it, as an
 * approved one does); a verdict a hook changed loses the policy's "always allow" suggestion, which
 * would not answer the hook.
 */
export async function verdictWithHooks(
  hooks: HookPort | undefined,
  scope: HookScope,
  call: ToolCallFacts,
  verdict: PolicyVerdict
): Promise<{ verdict: PolicyVerdict; reports: string[] }> {
  if (!hooks) return { verdict, reports: [] }
  const { verdict: answer, reports } = await hooks.preToolUse(scope, call, verdict)
  if (answer.decision === verdict.decision && answer.rule === verdict.rule)
    return { verdict: { ...verdict, reason: answer.reason }, reports }
  const { suggestedRule: _notForTheHook, ...planned } = verdict
  return { verdict: { ...planned, ...answer }, reports }
}
