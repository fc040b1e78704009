import type { HookVerdict } from './output'

export interface PolicyAnswer {
  decision: 'allow' | 'ask' | 'deny'
  rule: string
  reason: string
}

/** A hook's answer with the hook it came from, as the approval and the reports name it. */
export interface NamedVerdict {
  hook: string
  /** Where it is configured: "global" or "project". */
  origin: string
  verdict: HookVerdict
}

/**
 * The asks a hook's "allow" may answer: those that ask only because nothing allowed the call (no
 * rule, the mode's toggle off, the default). Every other ask (an ask rule, an always-ask construct,
 * a protected path, a write outside the workspace, a command leaving the sandbox, the repository's
 * git config) is kept for the user: a list of what is safe, so a new ask is kept until added here.
 */
export const HOOK_LIFTABLE_ASKS: ReadonlySet<string> = new Set([
  'default-ask',
  'no-matching-rule',
  'auto-approve-off',
  'outside-workspace',
  'foreign-origin'
])

export const hookRule = (named: Pick<NamedVerdict, 'hook'>): string => `hook:${named.hook}`
const who = (named: NamedVerdict): string => `The ${named.origin} PreToolUse hook '${named.hook}'`

/**
 * PreToolUse: the policy decides first; the hooks may deny or ask anything, and allow only what the
 * policy would ask for a reason on `HOOK_LIFTABLE_ASKS`. A policy deny stands (the hooks are not run
 * for it). A hook that failed, hung or printed what cannot be read makes the call ask. Order of
 * strength: deny, then problems and asks, then allow.
 */
export function decideWithHooks(policy: PolicyAnswer, answers: readonly NamedVerdict[]): PolicyAnswer {
  if (policy.decision === 'deny') return policy
  const first = (kind: HookVerdict['kind']) => answers.find((answer) => answer.verdict.kind === kind)
  const denied = first('block')
  if (denied && denied.verdict.kind === 'block')
    return { decision: 'deny', rule: hookRule(denied), reason: `${who(denied)} denied it: ${denied.verdict.reason}` }
  const broken = first('problem')
  if (broken && broken.verdict.kind === 'problem') {
    return {
      decision: 'ask',
      rule: hookRule(broken),
      reason: `${who(broken)} ${broken.verdict.problem}, so this call needs your approval`
    }
  }
  const asked = first('ask')
  if (asked && asked.verdict.kind === 'ask') {
    return {
      decision: 'ask',
      rule: hookRule(asked),
      reason: `${who(asked)} asks for approval${asked.verdict.reason ? `: ${asked.verdict.reason}` : ''}`
    }
  }
  const allowed = first('allow')
  if (!allowed || allowed.verdict.kind !== 'allow' || policy.decision === 'allow') return policy
  if (!HOOK_LIFTABLE_ASKS.has(policy.rule)) {
    return {
      ...policy,
      reason: `${policy.reason} (${who(allowed)} allowed it, but a hook cannot lift this ask: ${policy.rule})`
    }
  }
  return {
    decision: 'allow',
    rule: hookRule(allowed),
    reason: `${who(allowed)} allowed it${allowed.verdict.reason ? `: ${allowed.verdict.reason}` : ''}`
  }
}
