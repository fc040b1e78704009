/**
 * Command rules in Claude Code's grammar:
 * - a plain rule matches its words followed by nothing or a space (`git` never matches `gitk`);
 * - `*` is a glob that may span spaces, anchored at both ends (`git * main` matches
 *   `git checkout main`, not `git push upstream main --force`);
 * - a trailing ` *` also matches the bare command (`ls *` matches `ls`, never `lsof`);
 * - `X:*` means `X *` (`npm run test:*` does not match `npm run test:e2e`).
 * Only spaces and tabs separate words, in rules as in commands.
 */
interface CompiledRule {
  source: string
  /** Case-sensitive: allow rules. */
  exact: RegExp
  /** Case-insensitive: deny and ask rules (`RM` runs `rm` on case-insensitive file systems). */
  folded: RegExp
}

const escape = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
const ANY = '[\\s\\S]*'

/** The rule's regex source, anchored at both ends. */
function rulePattern(rule: string): string {
  let body = rule.replace(/^[ \t]+|[ \t]+$/g, '').replace(/[ \t]+/g, ' ')
  if (body.endsWith(':*')) body = `${body.slice(0, -2).replace(/ $/, '')} *`
  if (body === '*' || body === '') return `^${ANY}$`
  if (!body.includes('*')) return `^${escape(body)}(?: ${ANY})?$`
  const bareToo = body.endsWith(' *')
  if (bareToo) body = body.slice(0, -2)
  const pattern = body.split('*').map(escape).join(ANY)
  return bareToo ? `^${pattern}(?: ${ANY})?$` : `^${pattern}$`
}

const cache = new Map<string, CompiledRule>()

function compiled(rule: string): CompiledRule {
  let hit = cache.get(rule)
  if (!hit) {
    const source = rulePattern(rule)
    hit = { source: rule, exact: new RegExp(source), folded: new RegExp(source, 'i') }
    if (cache.size > 5000) cache.clear()
    cache.set(rule, hit)
  }
  return hit
}

export type RuleCase = 'exact' | 'folded'

/** The first rule of the list matching any of the command's forms. */
export function firstMatch(rules: readonly string[] | undefined, forms: readonly string[], matchCase: RuleCase = 'exact'): string | undefined {
  if (!rules) return undefined
  for (const rule of rules) {
    const regex = compiled(rule)[matchCase]
    for (const form of forms) if (regex.test(form)) return rule
  }
  return undefined
}
