import type { CommandRules } from '../modes/schema'
import {
  analyzeCommand,
  basename,
  commandName,
  programForAllow,
  type CommandAnalysis,
  type CommandPart
} from './shell/analyze'
import { withoutGlobalOptions } from './shell/global-options'
import { firstFlagMatch, flagRulesMayMatch } from './flag-rules'
import { LineScan, nameAppears, ruleProgram } from './named-programs'
import { FORM_SEPARATOR, firstMatchOfTexts, foldedFirstWordsMayMatch, foldedTexts } from './rules'

export type Decision = 'allow' | 'ask' | 'deny'

export interface RuleSet {
  /** Where the rules come from, for "which rule decided this". */
  origin: string
  rules: CommandRules
  /** Allow rules from an untrusted project do not apply; ask and deny always do. */
  allowApplies: boolean
}

export interface PartDecision {
  text: string
  decision: Decision
  rule?: string
}

export interface CommandDecision {
  decision: Decision
  rule: string
  reason: string
  parts: PartDecision[]
  analysis: CommandAnalysis
}

const join = (argv: readonly string[]): string => argv.join(' ')

/**
 * The word lists deny and ask rules are matched against: every wrapper level, binary paths reduced
 * to their name, and global options before a subcommand removed (`git -C dir push` is `git push`).
 * Keyed by their match text (the words joined by FORM_SEPARATOR), so a form is listed once.
 */
function strictForms(part: CommandPart): Map<string, readonly string[]> {
  const forms = new Map<string, readonly string[]>()
  for (const level of part.levels) {
    const first = level[0]
    const tail = level.length > 1 ? FORM_SEPARATOR + level.slice(1).join(FORM_SEPARATOR) : ''
    forms.set(first + tail, level)
    // The reduced names only add a form when they differ from the word as written.
    const base = basename(first)
    if (base !== first) forms.set(base + tail, [base, ...level.slice(1)])
    const name = commandName(first)
    if (name !== base) forms.set(name + tail, [name, ...level.slice(1)])
  }
  for (const bare of withoutGlobalOptions(commandName(part.program), part.argv.slice(1)))
    forms.set(bare.join(FORM_SEPARATOR), bare)
  return forms
}

/** The texts allow rules are matched against: `./git` is not `git`, `/usr/bin/git` is; `sudo` must be named. */
const allowTexts = (part: CommandPart): string[] =>
  part.allowLevels.map(
    (level) =>
      programForAllow(level[0]) + (level.length > 1 ? FORM_SEPARATOR + level.slice(1).join(FORM_SEPARATOR) : '')
  )

/**
 * Whether any deny or ask rule may match the part: the first words of its strict forms (each
 * level's program as written, as a base name and as a command name) are checked against the
 * rules' command words first, so a part no such rule names skips building and matching its forms.
 */
function strictRulesMayMatch(part: CommandPart, sets: readonly RuleSet[]): boolean {
  const firstWords: string[] = []
  for (const level of part.levels) firstWords.push(level[0], basename(level[0]), commandName(level[0]))
  // The forms without global options start with the program's command name.
  firstWords.push(commandName(part.program))
  return sets.some(({ rules }) =>
    [rules.deny, rules.ask].some(
      (list) => foldedFirstWordsMayMatch(list, firstWords) || flagRulesMayMatch(list, firstWords)
    )
  )
}

const partText = (part: CommandPart): string => part.command.text || join(part.argv)
const firstWord = (rule: string): string => basename(rule.trim().split(/[ \t]/)[0])

function decidePart(
  part: CommandPart,
  sets: readonly RuleSet[],
  autoApprove: boolean,
  hasStrictRules: boolean
): PartDecision {
  const text = partText(part)
  if (hasStrictRules && strictRulesMayMatch(part, sets)) {
    const strict = strictForms(part)
    const strictTexts = foldedTexts(strict.keys())
    const strictWords = [...strict.values()]
    for (const set of sets) {
      const rule =
        firstMatchOfTexts(set.rules.deny, strictTexts, 'folded') ?? firstFlagMatch(set.rules.deny, strictWords)
      if (rule) return { text, decision: 'deny', rule: `${set.origin} deny "${rule}"` }
    }
    for (const set of sets) {
      const rule = firstMatchOfTexts(set.rules.ask, strictTexts, 'folded') ?? firstFlagMatch(set.rules.ask, strictWords)
      if (rule) return { text, decision: 'ask', rule: `${set.origin} ask "${rule}"` }
    }
  }
  const forms = allowTexts(part)
  for (const set of sets) {
    if (!set.allowApplies) continue
    // A `sudo` part needs a rule that says `sudo`: `*` or `ls` do not cover `sudo ls`.
    const rules = part.privileged
      ? set.rules.allow?.filter((rule) => firstWord(rule) === part.privileged)
      : set.rules.allow
    const rule = firstMatchOfTexts(rules, forms)
    // Without the toggle an allow rule only records that it matched: the part still asks.
    if (rule) return { text, decision: autoApprove ? 'allow' : 'ask', rule: `${set.origin} allow "${rule}"` }
  }
  return { text, decision: 'ask' }
}

/**
 * The first deny or ask rule whose program's name appears in the line where the rules did not
 * see it as a program (`linux64 touch P`, `sed 's/x/touch P/e'` with `touch` denied).
 */
function namedElsewhere(
  line: string,
  analysis: CommandAnalysis,
  sets: readonly RuleSet[]
): { rule: string; name: string } | undefined {
  let scan: LineScan | undefined
  for (const set of sets)
    for (const kind of ['deny', 'ask'] as const)
      for (const rule of set.rules[kind] ?? []) {
        const name = ruleProgram(rule)
        if (!name) continue
        scan ??= new LineScan(line, analysis)
        if (!scan.lower.includes(name) && !scan.decoded.includes(name)) continue
        if (nameAppears(scan, name)) return { rule: `${set.origin} ${kind} "${rule}"`, name }
      }
  return undefined
}

const result = (
  decision: Decision,
  rule: string,
  reason: string,
  parts: PartDecision[],
  analysis: CommandAnalysis
): CommandDecision => ({
  decision,
  rule,
  reason,
  parts,
  analysis
})

/**
 * Decide a command line against rule sets (Roo's meaning of the "auto-approve commands" toggle).
 * Per part: deny if a deny rule matches; else ask if an ask rule matches; else allow only if an
 * allow rule matches and `autoApprove` is on; else ask. The line: any deny → deny; any ask or any
 * never-auto-allowed construct → ask; else allow. Deny beats ask beats allow in any order.
 */
export function decideCommand(
  line: string,
  sets: readonly RuleSet[],
  autoApprove = false,
  analysis: CommandAnalysis = analyzeCommand(line)
): CommandDecision {
  if (analysis.invalid)
    return result(
      'deny',
      'invalid-command',
      'Invalid argument: the command holds a NUL or another control character; nothing was run',
      [],
      analysis
    )
  // Without a deny or an ask rule, the strict forms are not built at all.
  const hasStrictRules = sets.some((set) => (set.rules.deny?.length ?? 0) + (set.rules.ask?.length ?? 0) > 0)
  const parts = analysis.parts.map((part) => decidePart(part, sets, autoApprove, hasStrictRules))
  const denied = parts.find((part) => part.decision === 'deny')
  if (denied)
    return result('deny', denied.rule as string, `'${denied.text}' is denied by ${denied.rule}`, parts, analysis)
  if (analysis.error)
    return result(
      'ask',
      'unparsed-command',
      `The command could not be analysed (${analysis.error}), so it is never auto-approved`,
      parts,
      analysis
    )
  if (analysis.alwaysAsk.length > 0)
    return result('ask', 'always-ask', `Never auto-approved: ${analysis.alwaysAsk.join('; ')}`, parts, analysis)
  if (parts.length === 0 && analysis.writes.length === 0)
    return result(
      'ask',
      'empty-command',
      'The command is empty or only a comment: nothing to auto-approve',
      parts,
      analysis
    )
  const asked = parts.find((part) => part.decision === 'ask' && part.rule?.includes(' ask "'))
  if (asked)
    return result('ask', asked.rule as string, `'${asked.text}' needs approval by ${asked.rule}`, parts, analysis)
  const named = namedElsewhere(line, analysis, sets)
  if (named)
    return result(
      'ask',
      named.rule,
      `'${named.name}', which ${named.rule} names, appears in this line where another program may run it (an argument or a string the policy cannot prove is data), so it needs approval`,
      parts,
      analysis
    )
  const redirect = analysis.writes.find((use) => use.redirect)
  if (redirect)
    return result(
      'ask',
      'output-redirection',
      `Output is redirected into '${redirect.path}'; only /dev/null is never asked about`,
      parts,
      analysis
    )
  const unmatched = parts.find((part) => part.decision === 'ask' && !part.rule)
  const elevated = analysis.parts.find((part, i) => part.privileged && parts[i] === unmatched)
  if (elevated)
    return result(
      'ask',
      'privileged',
      `'${unmatched?.text}' runs with elevated privileges (${elevated.privileged}); only an allow rule that starts with '${elevated.privileged}' auto-approves it`,
      parts,
      analysis
    )
  if (unmatched) return result('ask', 'no-matching-rule', `No allow rule matches '${unmatched.text}'`, parts, analysis)
  const matchedOnly = parts.find((part) => part.decision === 'ask')
  if (matchedOnly)
    return result(
      'ask',
      'auto-approve-off',
      `'${matchedOnly.text}' matches ${matchedOnly.rule}, but this mode does not auto-approve commands`,
      parts,
      analysis
    )
  const rules = [...new Set(parts.map((part) => part.rule))].join(', ')
  return result(
    'allow',
    rules,
    `Every part matches an allow rule and the mode auto-approves commands (${rules})`,
    parts,
    analysis
  )
}

/** The first rule any part of the line matches, read as deny and ask rules are (every wrapper level, case-folded). */
export function firstPartMatch(line: string, rules: readonly string[]): string | undefined {
  // No rule, nothing to match: the line is not parsed again for nothing.
  if (rules.length === 0) return undefined
  for (const part of analyzeCommand(line).parts) {
    const rule = firstMatchOfTexts(rules, foldedTexts(strictForms(part).keys()), 'folded')
    if (rule) return rule
  }
  return undefined
}
