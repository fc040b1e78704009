/**
 * Deny and ask rules that name flags match them in any order and spelling: `rm -rf *` denies
 * `rm -fr x`, `rm -r -f x`, `rm x -rf` and `rm --recursive --force x`. A rule whose words after
 * its command words (`rm`, `git push`) are flags matches a command with those command words whose
 * flags are a superset of the rule's, short clusters taken letter by letter. Literal operands of
 * the rule (`rm -rf /`) must appear among the command's operands, in order; `*` stands for any.
 * Allow rules never match this way: an allow rule means exactly its words.
 */
import { lookupTable } from '../lookup-table'

interface FlagRule {
  source: string
  /** The command words, lower-cased (`rm`, `git push`). */
  prefix: string[]
  short: Set<string>
  long: Set<string>
  operands: string[]
}

/** Long options and letters that mean the same flag, per program: each maps to one spelling. */
const SPELLINGS: Readonly<Record<string, Readonly<Record<string, string>>>> = lookupTable<
  Readonly<Record<string, string>>
>({
  rm: { '--recursive': 'r', R: 'r', '--force': 'f', '--dir': 'd' },
  cp: { '--recursive': 'R', r: 'R', '--force': 'f' },
  mv: { '--force': 'f' },
  ln: { '--force': 'f', '--symbolic': 's' },
  chmod: { '--recursive': 'R' },
  chown: { '--recursive': 'R' },
  chgrp: { '--recursive': 'R' },
  git: { '--force': 'f' },
  shred: { '--remove': 'u', '--force': 'f' }
})

const canonical = (program: string, flag: string): string => {
  const spellings = SPELLINGS[program]
  return spellings && Object.hasOwn(spellings, flag) ? spellings[flag] : flag
}

function addFlag(program: string, word: string, short: Set<string>, long: Set<string>): void {
  if (word.startsWith('--')) {
    const name = word.split('=')[0]
    const spelled = canonical(program, name)
    if (spelled.startsWith('--')) long.add(spelled)
    else short.add(spelled)
    return
  }
  for (const letter of word.slice(1)) {
    const spelled = canonical(program, letter)
    if (spelled.startsWith('--')) long.add(spelled)
    else short.add(spelled)
  }
}

const isFlag = (word: string): boolean => word.length > 1 && word.startsWith('-') && word !== '--'

function compile(rule: string): FlagRule | null {
  const words = rule
    .trim()
    .replace(/:\*$/, ' *')
    .split(/[ \t]+/)
    .filter(Boolean)
  let split = 0
  while (split < words.length && !isFlag(words[split]) && words[split] !== '*') split++
  const prefix = words.slice(0, split).map((word) => word.toLowerCase())
  const rest = words.slice(split)
  if (prefix.length === 0 || prefix.some((word) => word.includes('*')) || !rest.some(isFlag)) return null
  if (rest.some((word) => word !== '*' && word.includes('*'))) return null
  const program = prefix[0].slice(prefix[0].lastIndexOf('/') + 1)
  const compiled: FlagRule = { source: rule, prefix, short: new Set(), long: new Set(), operands: [] }
  for (const word of rest) {
    if (word === '*') continue
    if (isFlag(word)) addFlag(program, word, compiled.short, compiled.long)
    else compiled.operands.push(word)
  }
  return compiled
}

const compiledLists = new WeakMap<readonly string[], FlagRule[]>()

function flagRules(rules: readonly string[]): FlagRule[] {
  let hit = compiledLists.get(rules)
  if (!hit) {
    hit = rules.map(compile).filter((rule): rule is FlagRule => rule !== null)
    compiledLists.set(rules, hit)
  }
  return hit
}

const programLists = new WeakMap<readonly string[], ReadonlySet<string>>()

/**
 * Whether a flag rule of the list may match a form whose first word is one of `firstWords`: a
 * rule matches only words whose first one, lower-cased, is its own first word.
 */
export function flagRulesMayMatch(rules: readonly string[] | undefined, firstWords: readonly string[]): boolean {
  if (!rules || rules.length === 0) return false
  let programs = programLists.get(rules)
  if (!programs) {
    programs = new Set(flagRules(rules).map((rule) => rule.prefix[0]))
    programLists.set(rules, programs)
  }
  if (programs.size === 0) return false
  for (const word of firstWords) if (programs.has(word.toLowerCase())) return true
  return false
}

/** Whether every item of `wanted` appears in `have` in the same order. */
function inOrder(wanted: readonly string[], have: readonly string[]): boolean {
  let at = 0
  for (const item of have) if (at < wanted.length && item === wanted[at]) at++
  return at === wanted.length
}

function matches(rule: FlagRule, words: readonly string[]): boolean {
  if (words.length < rule.prefix.length) return false
  for (let i = 0; i < rule.prefix.length; i++) if (words[i].toLowerCase() !== rule.prefix[i]) return false
  const program = rule.prefix[0].slice(rule.prefix[0].lastIndexOf('/') + 1)
  const short = new Set<string>()
  const long = new Set<string>()
  const operands: string[] = []
  let optionsEnd = false
  for (const word of words.slice(rule.prefix.length)) {
    if (!optionsEnd && word === '--') optionsEnd = true
    else if (!optionsEnd && isFlag(word)) addFlag(program, word, short, long)
    else operands.push(word)
  }
  for (const letter of rule.short) if (!short.has(letter)) return false
  for (const name of rule.long) if (!long.has(name)) return false
  return inOrder(rule.operands, operands)
}

/** The first deny or ask rule whose flags the command's flags cover, in any order and spelling. */
export function firstFlagMatch(
  rules: readonly string[] | undefined,
  forms: readonly (readonly string[])[]
): string | undefined {
  if (!rules || rules.length === 0) return undefined
  for (const rule of flagRules(rules)) for (const words of forms) if (matches(rule, words)) return rule.source
  return undefined
}
