import type { ModeConfig } from './schema'

/**
 * What the user added to a built-in mode ("always allow" on an approval), kept apart from the
 * built-in's definition: the built-in keeps coming from the app (its updates reach the user) and
 * these lists are added on top, shown in the mode editor as the user's additions.
 */
export interface BuiltInAdditions {
  commandAllow?: string[]
  sandboxDomains?: string[]
  browserAllow?: string[]
}

const union = (base: readonly string[] | undefined, added: readonly string[] | undefined): string[] => [
  ...new Set([...(base ?? []), ...(added ?? [])])
]

/** The built-in with the user's additions on top; an allow rule turns the command toggle on (Roo's meaning). */
export function withAdditions<M extends ModeConfig>(mode: M, additions: BuiltInAdditions | undefined): M {
  if (!additions) return mode
  let next: M = mode
  if (additions.commandAllow?.length) {
    next = {
      ...next,
      autoApprove: { ...next.autoApprove, command: true },
      commandRules: { ...next.commandRules, allow: union(next.commandRules?.allow, additions.commandAllow) }
    }
  }
  if (additions.sandboxDomains?.length) {
    const sandbox = next.sandbox ?? { enabled: true, network: 'ask' as const }
    next = { ...next, sandbox: { ...sandbox, allowedDomains: union(sandbox.allowedDomains, additions.sandboxDomains) } }
  }
  if (additions.browserAllow?.length) {
    next = {
      ...next,
      browserRules: { ...next.browserRules, allow: union(next.browserRules?.allow, additions.browserAllow) }
    }
  }
  return next
}
