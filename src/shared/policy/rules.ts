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
  if (body.endsWith(':*')) body = body.slice(0, -2).trimEnd()
  if (body === '*' || body === '') return { source: rule, regex: /^[\s\S]*$/ }
  let pattern = escape(body)
  const trailing = pattern.endsWith(' *')
  if (trailing) pattern = pattern.slice(0, -2)
  if (pattern.startsWith('* ')) pattern = '(?:[\\s\\S]* )?' + pattern.slice(2)
  pattern = pattern.replace(/\*/g, '[\\s\\S]*')
  // Without a wildcard at the end a rule still covers further arguments, at a word boundary.
  if (trailing || !body.endsWith('*')) pattern += '(?: [\\s\\S]*)?'
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
