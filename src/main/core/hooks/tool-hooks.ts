import type { PolicyVerdict } from '../agent/ports'
import type { HookPort, HookScope, ToolCallFacts } from './hook-service'

/**
 * The policy's verdict with the PreToolUse hooks applied. Unchanged by them, it keeps everything
 * the policy planned; changed, it keeps only the sandbox placement (`run`): a call a hook allowed,
 * or one it made ask that the user then approves, runs as written, as any approved call does.
 */
export async function verdictWithHooks(
  hooks: HookPort | undefined,
  scope: HookScope,
  call: ToolCallFacts,
  verdict: PolicyVerdict
): Promise<{ verdict: PolicyVerdict; reports: string[] }> {
  if (!hooks) return { verdict, reports: [] }
  const { verdict: answer, reports } = await hooks.preToolUse(scope, call, verdict)
  if (answer.decision === verdict.decision && answer.rule === verdict.rule) return { verdict: { ...verdict, reason: answer.reason }, reports }
  return { verdict: { ...(verdict.run ? { run: verdict.run } : {}), ...answer }, reports }
}
