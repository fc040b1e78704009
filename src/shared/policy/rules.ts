/**
 * Command rules in Claude Code's grammar:
 * - a plain rule matches its words followed by nothing or a space (`git` never matches `gitk`);
 * - `*` is a glob that may span spaces, anchored at both ends (`git * main` matches
 *   `git checkout main`, not `git push upstream main --force`);
 * - a trailing ` *` also matches the bare command (`ls *` matches `ls`, never `lsof`);
 * - `X:*` means `X *` (`npm run test:*` does not match `npm run test:e2e`).
 * Only spaces and tabs separate words, in rules as in commands.
 *
 * A command given as words keeps its word boundaries: the quoted word `'git status'` is one word,
 * a program called `git status`, and never matches the rule `git status *` (a rule's space only
 * matches a boundary between words; `*` matches anything, boundaries included).
 *
 * Matching is linear in the command: a rule is cut at its `*`s into literal segments, the first
 * must start the text, the last must end it, and the others are found left to right with indexOf
 * (the leftmost fit is always the best one for a `*` glob), so no pattern can make it backtrack.
 */

/** Joins the words of a command for matching: a character no command word can hold (NUL is refused). */
export const FORM_SEPARATOR = '\u0000'
const SEP = FORM_SEPARATOR

/** A command as the rules see it: its words, or a text whose spaces and tabs separate words. */
export type RuleForm = string | readonly string[]

interface Glob {
  /** Literal pieces between the `*`s; one piece means no `*`. */
  pieces: string[]
}

interface CompiledRule {
  source: string
  /** The rule matches when any of these globs matches the whole text. */
  exact: Glob[]
  /** The same, case-folded: deny and ask rules (`RM` runs `rm` on case-insensitive file systems). */
  folded: Glob[]
}

/**
 * Case folding as a case-insensitive JavaScript RegExp (without the u flag) does it, so the answers
 * stay those of the regex matcher this replaces: each code unit to its upper case when that is one
 * code unit, and never from beyond ASCII into it.
 */
function fold(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text.toUpperCase()
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    const upper = c.toUpperCase()
    out += upper.length === 1 && !(c.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) ? upper : c
  }
  return out
}

const globOf = (pattern: string): Glob => ({ pieces: pattern.split('*') })

/** The globs a rule stands for, on texts whose words are joined by SEP. */
function ruleGlobs(rule: string): string[] {
  let body = rule.replace(/^[ \t]+|[ \t]+$/g, '').replace(/[ \t]+/g, ' ')
  if (body.endsWith(':*')) body = `${body.slice(0, -2).replace(/ $/, '')} *`
  if (body === '*' || body === '') return ['*']
  const words = (text: string): string => text.split(' ').join(SEP)
  if (!body.includes('*')) return [words(body), `${words(body)}${SEP}*`]
  // A trailing ` *` also matches the bare command.
  if (body.endsWith(' *')) return [words(body.slice(0, -2)), words(body)]
  return [words(body)]
}

/** Whether the glob matches all of `text`: anchored at both ends, each middle piece at its leftmost fit. */
export function globMatches(glob: Glob, text: string): boolean {
  const { pieces } = glob
  const first = pieces[0]
  if (pieces.length === 1) return text === first
  const last = pieces[pieces.length - 1]
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false
  let at = first.length
  const end = text.length - last.length
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]
    if (piece === '') continue
    const found = text.indexOf(piece, at)
    if (found < 0 || found + piece.length > end) return false
    at = found + piece.length
  }
  return true
}

const cache = new Map<string, CompiledRule>()

function compiled(rule: string): CompiledRule {
  let hit = cache.get(rule)
  if (!hit) {
    const globs = ruleGlobs(rule)
    hit = { source: rule, exact: globs.map(globOf), folded: globs.map((glob) => globOf(fold(glob))) }
    if (cache.size > 5000) cache.clear()
    cache.set(rule, hit)
  }
  return hit
}

export type RuleCase = 'exact' | 'folded'

/**
 * A rule list compiled once: each rule's globs and the command word it needs (null when the word
 * is a glob or not plain ASCII, so only the glob can tell). Kept per list, as long as the list lives.
 */
interface CompiledList {
  rules: CompiledRule[]
  words: Array<string | null>
  foldedWords: Array<string | null>
  /** The folded command words, and whether some rule has none (a glob or a word that is not plain ASCII). */
  foldedWordSet: ReadonlySet<string>
  someWordUnknown: boolean
  /** Rule indexes by command word (as written, and folded), and those of rules without one, ascending. */
  byWord: ReadonlyMap<string, readonly number[]>
  byFoldedWord: ReadonlyMap<string, readonly number[]>
  withoutWord: readonly number[]
}

function indexByWord(words: ReadonlyArray<string | null>): Map<string, number[]> {
  const index = new Map<string, number[]>()
  words.forEach((word, i) => {
    if (word === null) return
    const at = index.get(word)
    if (at) at.push(i)
    else index.set(word, [i])
  })
  return index
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
    const foldedWords = words.map((word) => (word === null ? null : fold(word)))
    const known = foldedWords.filter((word): word is string => word !== null)
    hit = {
      rules: rules.map(compiled),
      words,
      foldedWords,
      foldedWordSet: new Set(known),
      someWordUnknown: known.length < foldedWords.length,
      byWord: indexByWord(words),
      byFoldedWord: indexByWord(foldedWords),
      withoutWord: words.flatMap((word, i) => (word === null ? [i] : []))
    }
    lists.set(rules, hit)
  }
  return hit
}

/** The words of a form: given, or a text cut at spaces and tabs. */
export const formWords = (form: RuleForm): readonly string[] => (typeof form === 'string' ? form.split(/[ \t]/) : form)

/** The text a form is matched as: its words joined by SEP. */
const formText = (form: RuleForm): string => (typeof form === 'string' ? form.replace(/[ \t]/g, SEP) : form.join(SEP))

/** Whether one rule matches one form (as a deny or ask rule when `matchCase` is folded). */
export function ruleMatches(rule: string, form: RuleForm, matchCase: RuleCase = 'exact'): boolean {
  const text = matchCase === 'folded' ? fold(formText(form)) : formText(form)
  return compiled(rule)[matchCase].some((glob) => globMatches(glob, text))
}

/** The first rule of the list matching any of the command's forms. */
export function firstMatch(
  rules: readonly string[] | undefined,
  forms: readonly RuleForm[],
  matchCase: RuleCase = 'exact'
): string | undefined {
  if (!rules || rules.length === 0) return undefined
  return firstMatchOfTexts(rules, matchTexts(forms, matchCase), matchCase)
}

/** The texts forms are matched as (case-folded for deny and ask rules): compute once, match many lists. */
export const matchTexts = (forms: readonly RuleForm[], matchCase: RuleCase): string[] =>
  forms.map((form) => (matchCase === 'folded' ? fold(formText(form)) : formText(form)))

/**
 * Whether a rule of the list may match, as a deny or ask rule, a form whose first word is one of
 * `firstWords`. False only where firstMatchOfTexts would skip every rule of the list: each rule
 * names a plain command word, every first word is plain, and none of them is a rule's word.
 */
export function foldedFirstWordsMayMatch(rules: readonly string[] | undefined, firstWords: readonly string[]): boolean {
  if (!rules || rules.length === 0) return false
  const list = compiledList(rules)
  if (list.someWordUnknown) return true
  // A plain word is ASCII, where folding is upper-casing.
  for (const word of firstWords) if (!PLAIN_WORD.test(word) || list.foldedWordSet.has(word.toUpperCase())) return true
  return false
}

/** Texts already joined by FORM_SEPARATOR, case-folded as deny and ask rules match them. */
export const foldedTexts = (texts: Iterable<string>): string[] => Array.from(texts, fold)

/** firstMatch over texts from matchTexts with the same matchCase. */
export function firstMatchOfTexts(
  rules: readonly string[] | undefined,
  texts: readonly string[],
  matchCase: RuleCase = 'exact'
): string | undefined {
  if (!rules || rules.length === 0) return undefined
  const list = compiledList(rules)
  // A rule whose command word no form starts with cannot match: skip its globs (ASCII words only,
  // where upper-casing and the folding agree).
  const byWord = matchCase === 'folded' ? list.byFoldedWord : list.byWord
  const candidates = candidateRules(list, byWord, texts)
  const matches = (i: number): boolean => {
    const globs = list.rules[i][matchCase]
    for (const text of texts) if (globs.some((glob) => globMatches(glob, text))) return true
    return false
  }
  if (!candidates) {
    for (let i = 0; i < list.rules.length; i++) if (matches(i)) return list.rules[i].source
    return undefined
  }
  for (const i of candidates) if (matches(i)) return list.rules[i].source
  return undefined
}

/**
 * The rules that may match, in list order: those whose command word some text starts with, and
 * those without a plain word. Undefined (every rule) when a text's first word is not plain ASCII,
 * where upper-casing and the folding may disagree.
 */
function candidateRules(
  list: CompiledList,
  byWord: ReadonlyMap<string, readonly number[]>,
  texts: readonly string[]
): readonly number[] | undefined {
  let found: number[] | undefined
  let sources = 0
  for (const text of texts) {
    const end = text.indexOf(SEP)
    const word = end < 0 ? text : text.slice(0, end)
    if (!PLAIN_WORD.test(word)) return undefined
    const at = byWord.get(word)
    if (!at) continue
    found = found ? found.concat(at) : [...at]
    sources++
  }
  if (!found) return list.withoutWord
  if (list.withoutWord.length > 0) {
    found.push(...list.withoutWord)
    sources++
  }
  // Merged from several lists: back into list order, each rule once.
  return sources > 1 ? [...new Set(found)].sort((a, b) => a - b) : found
}
