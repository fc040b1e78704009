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

/**
 * A rule list compiled once: each rule's regexes and the command word it needs (null when the word
 * is a glob or not plain ASCII, so only the regex can tell). Kept per list, as long as the list lives.
 */
interface CompiledList {
  rules: CompiledRule[]
  words: Array<string | null>
}

const lists = new WeakMap<readonly string[], CompiledList>()
const PLAIN_WORD = /^[\x21-\x7e]+$/

function compiledList(rules: readonly string[]): CompiledList {
  let hit = lists.get(rules)
  if (!hit) {
    const words = rules.map((rule) => {
      const word = rule.replace(/^[ \t]+/, '').split(/[ \t]/)[0]
      return PLAIN_WORD.test(word) && !word.includes('*') && !word.endsWith(':') ? word : null
    })
    hit = { rules: rules.map(compiled), words }
    lists.set(rules, hit)
  }
  return hit
}

const wordOf = (form: string): string => {
  const space = form.indexOf(' ')
  return space < 0 ? form : form.slice(0, space)
}

/** The first rule of the list matching any of the command's forms. */
export function firstMatch(rules: readonly string[] | undefined, forms: readonly string[], matchCase: RuleCase = 'exact'): string | undefined {
  if (!rules || rules.length === 0) return undefined
  const list = compiledList(rules)
  // A rule whose command word no form starts with cannot match: skip its regex (ASCII words only,
  // where lower-casing and the regex's case folding agree).
  const folded = matchCase === 'folded'
  const formWords = forms.map((form) => {
    const word = wordOf(form)
    return PLAIN_WORD.test(word) ? (folded ? word.toLowerCase() : word) : null
  })
  const anyUnknown = formWords.includes(null)
  for (let i = 0; i < list.rules.length; i++) {
    const word = list.words[i]
    const key = word === null ? null : folded ? word.toLowerCase() : word
    if (key !== null && !anyUnknown && !formWords.includes(key)) continue
    const regex = list.rules[i][matchCase]
    for (const form of forms) if (regex.test(form)) return list.rules[i].source
  }
  return undefined
}
