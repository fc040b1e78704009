/**
 * The rules a suggested command rule may be widened to before saving, narrowest first: the rule
 * itself, then its leading words followed by `*` (`npm run build:prod` → `npm run *`, `npm *`).
 * Only prefixes of what the policy suggested, never a bare `*`: the core accepts nothing else.
 */
export function ruleWidenings(rule: string): string[] {
  const words = rule.trim().split(/\s+/).filter(Boolean)
  const body = words[words.length - 1] === '*' ? words.slice(0, -1) : words
  const wider: string[] = []
  for (let count = body.length - 1; count >= 1; count--) wider.push(`${body.slice(0, count).join(' ')} *`)
  return [...new Set([rule, ...wider])]
}

/** The one command rule of a suggestion, when it is exactly one (only then can it be widened). */
export function singleCommandRule(rule: unknown): string | undefined {
  const allow = (rule as { commandAllow?: unknown } | null)?.commandAllow
  return Array.isArray(allow) && allow.length === 1 && typeof allow[0] === 'string' ? allow[0] : undefined
}
