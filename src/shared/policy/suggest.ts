import type { ModeConfig } from '../modes/schema'
import { definitionOf, type PolicyCall } from './decide'
import { firstMatch } from './rules'
import { analyzeCommand, basename, type CommandAnalysis } from './shell/analyze'
import { lookupTable } from '../lookup-table'

export interface RuleSuggestion {
  /** The narrowest rule that would allow this call next time, per part; empty when none is safe. */
  allow: string[]
  /** Why nothing (or not everything) can be suggested. */
  note?: string
}

/** Subcommand-style programs: the rule keeps the subcommand word (`git diff`, `npm run build`). */
const ARITY: Record<string, number> = lookupTable({
  git: 2,
  npm: 2,
  pnpm: 2,
  yarn: 2,
  cargo: 2,
  go: 2,
  docker: 2,
  kubectl: 2,
  gh: 3,
  npx: 2,
  'npm run': 3
})

const isPlainWord = (word: string): boolean => /^[A-Za-z0-9@_][A-Za-z0-9@_.:+=,-]*$/.test(word) && !word.startsWith('-')

function ruleForArgv(argv: readonly string[]): string | undefined {
  const program = basename(argv[0] ?? '')
  if (!isPlainWord(program)) return undefined
  let arity = ARITY[program] ?? 1
  if (program === 'npm' && argv[1] === 'run') arity = 3
  const words = [program]
  for (let i = 1; i < arity && i < argv.length && isPlainWord(argv[i]); i++) words.push(argv[i])
  return words.length < argv.length ? `${words.join(' ')} *` : words.join(' ')
}

/**
 * "Always allow in this mode": the narrowest rule covering this command (Claude Code grammar), one
 * per part of a compound command. Never suggests a rule for always-ask constructs.
 */
export function suggestNarrowestRule(
  call: PolicyCall,
  mode?: Pick<ModeConfig, 'commandRules'>,
  parsedCommands?: ReadonlyMap<string, CommandAnalysis>
): RuleSuggestion {
  const line = definitionOf(call)?.commandLine?.(call.params)
  if (!line) return { allow: [], note: 'Only commands take rules; use the mode’s auto-approve toggles for other tools' }
  const analysis = parsedCommands?.get(line.command) ?? analyzeCommand(line.command)
  if (analysis.error) return { allow: [], note: `The command could not be analysed (${analysis.error})` }
  if (analysis.alwaysAsk.length > 0) return { allow: [], note: `Always asks: ${analysis.alwaysAsk.join('; ')}` }
  const rules = new Set<string>()
  for (const part of analysis.parts) {
    if (part.allowLevels.length < part.levels.length)
      return {
        allow: [],
        note: `'${part.command.text}' runs through ${part.wrappers.join(', ')}: write its rule by hand`
      }
    const rule = ruleForArgv(part.argv)
    if (!rule) return { allow: [], note: `No safe rule for '${part.command.text}'` }
    const text = part.argv.join(' ')
    const blocking =
      firstMatch(mode?.commandRules?.deny, [text], 'folded') ?? firstMatch(mode?.commandRules?.ask, [text], 'folded')
    if (blocking) return { allow: [], note: `The mode's rule "${blocking}" would still apply to '${text}'` }
    rules.add(rule)
  }
  return { allow: [...rules].slice(0, 5) }
}
