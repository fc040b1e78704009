/**
 * Command rules in Claude Code's grammar: `npm test` matches that command with exactly those
 * leading words (`npm test --watch` yes, `npm tests` no); `*` matches any run of characters
 * (`git diff *`, `* --version`); a trailing `:*` is accepted as "these words, then anything".
 */
export interface CompiledRule {
  source: string
  regex: RegExp
}

const escape = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

export function compileRule(rule: string): CompiledRule {
  let body = rule.trim().replace(/\s+/g, ' ')
  // Legacy `words:*`: those words then anything; `npm run test:*` also covers `npm run test:unit`.
  const legacyPrefix = body.endsWith(':*')
  if (legacyPrefix) body = body.slice(0, -2).trimEnd()
  if (body === '*' || body === '') return { source: rule, regex: /^[\s\S]*$/ }
  const trailing = !legacyPrefix && body.endsWith(' *')
  if (trailing) body = body.slice(0, -2)
  const leading = body.startsWith('* ')
  if (leading) body = body.slice(2)
  let pattern = body.split('*').map(escape).join('[\\s\\S]*')
  if (leading) pattern = '(?:[\\s\\S]* )?' + pattern
  // Without a wildcard at the end a rule still covers further arguments, at a word boundary.
  if (legacyPrefix) pattern += '(?:[ :][\\s\\S]*)?'
  else if (trailing || !body.endsWith('*')) pattern += '(?: [\\s\\S]*)?'
  return { source: rule, regex: new RegExp(`^${pattern}$`) }
}

const cache = new Map<string, CompiledRule>()

export function compiled(rule: string): CompiledRule {
  let hit = cache.get(rule)
  if (!hit) {
    hit = compileRule(rule)
    if (cache.size > 5000) cache.clear()
    cache.set(rule, hit)
  }
  return hit
}

/** The first rule of the list matching any of the command's forms. */
export function firstMatch(rules: readonly string[] | undefined, forms: readonly string[]): string | undefined {
  if (!rules) return undefined
  for (const rule of rules) {
    const { regex } = compiled(rule)
    for (const form of forms) if (regex.test(form)) return rule
  }
  return undefined
}
