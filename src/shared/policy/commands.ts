import type { CommandRules } from '../modes/schema'
import { analyzeCommand, basename, programForAllow, type CommandAnalysis, type CommandPart } from './shell/analyze'
import { firstMatch } from './rules'

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
  /** False when a toggle may not turn this ask into allow (always-ask constructs, unparsed input). */
  liftable: boolean
}

const join = (argv: readonly string[]): string => argv.join(' ')

/** The texts deny/ask rules are matched against: seen through wrappers and binary paths. */
function strictForms(part: CommandPart): string[] {
  const inner = [basename(part.program), ...part.argv.slice(1)]
  const outer = part.command.words.map((word) => word.value)
  const forms = [join(inner), join(part.argv), join(outer)]
  if (outer.length > 0) forms.push(join([basename(outer[0]), ...outer.slice(1)]))
  return forms
}

/** The text allow rules are matched against: `./git` is not `git`, `/usr/bin/git` is. */
const allowForm = (part: CommandPart): string => join([programForAllow(part.program), ...part.argv.slice(1)])

function decidePart(part: CommandPart, sets: readonly RuleSet[]): PartDecision {
  const text = part.command.text || join(part.argv)
  const strict = strictForms(part)
  for (const set of sets) {
    const rule = firstMatch(set.rules.deny, strict)
    if (rule) return { text, decision: 'deny', rule: `${set.origin} deny "${rule}"` }
  }
  for (const set of sets) {
    const rule = firstMatch(set.rules.ask, strict)
    if (rule) return { text, decision: 'ask', rule: `${set.origin} ask "${rule}"` }
  }
  const form = [allowForm(part)]
  for (const set of sets) {
    if (!set.allowApplies) continue
    const rule = firstMatch(set.rules.allow, form)
    if (rule) return { text, decision: 'allow', rule: `${set.origin} allow "${rule}"` }
  }
  return { text, decision: 'ask' }
}

/**
 * Decide a command line against rule sets. Deny beats ask beats allow whatever the order; every
 * part (substitutions included) must be allowed. `unmatched` says what an unmatched part gets:
 * 'allow' when the mode auto-approves commands, else 'ask'.
 */
export function decideCommand(line: string, sets: readonly RuleSet[], unmatched: 'allow' | 'ask' = 'ask'): CommandDecision {
  const analysis = analyzeCommand(line)
  const parts = analysis.parts.map((part) => decidePart(part, sets))
  const denied = parts.find((part) => part.decision === 'deny')
  if (denied)
    return { decision: 'deny', rule: denied.rule as string, reason: `'${denied.text}' is denied by ${denied.rule}`, parts, analysis, liftable: false }
  if (analysis.error)
    return { decision: 'ask', rule: 'unparsed-command', reason: `The command could not be analysed (${analysis.error})`, parts, analysis, liftable: false }
  if (analysis.alwaysAsk.length > 0)
    return { decision: 'ask', rule: 'always-ask', reason: analysis.alwaysAsk.join('; '), parts, analysis, liftable: false }
  const asked = parts.find((part) => part.decision === 'ask' && part.rule)
  if (asked)
    return { decision: 'ask', rule: asked.rule as string, reason: `'${asked.text}' needs approval by ${asked.rule}`, parts, analysis, liftable: false }
  const unmatchedPart = parts.find((part) => part.decision === 'ask')
  if (unmatchedPart && unmatched === 'ask')
    return { decision: 'ask', rule: 'no-matching-rule', reason: `No allow rule matches '${unmatchedPart.text}'`, parts, analysis, liftable: true }
  if (unmatchedPart) return { decision: 'allow', rule: 'auto-approve.command', reason: 'Commands are auto-approved in this mode', parts, analysis, liftable: true }
  const rules = [...new Set(parts.map((part) => part.rule))].join(', ')
  return { decision: 'allow', rule: rules || 'empty-command', reason: parts.length ? `Every part is allowed (${rules})` : 'Nothing to run', parts, analysis, liftable: true }
}
