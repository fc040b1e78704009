import type { ArithmeticUse } from './types'

/**
 * Bash evaluates arithmetic recursively: a name is replaced by its value, which is evaluated in
 * turn, and a subscript in it (`a[$(id)]`) runs the command inside. So `$((x+1))` runs whatever
 * `x` holds, however harmless the line looks. Only arithmetic over literal numbers (and the
 * parameters that are always numbers: `$#`, `$?`, `$$`, `$!`, `${#name}`) auto-runs.
 */
const NUMERIC_PARAMETERS = /\$[#?$!]|\$\{#[A-Za-z_][A-Za-z0-9_]*\}/g
/** Digits, blanks, operators and parentheses: nothing bash could look up. */
const LITERAL = /^[\s0-9+\-*/%()<>=!&|^~?:,]*$/

export const literalArithmetic = (text: string): boolean => LITERAL.test(text.replace(NUMERIC_PARAMETERS, '0'))

/** Why the arithmetic asks, or undefined when it only holds literal numbers. */
export function arithmeticProblem(use: ArithmeticUse): string | undefined {
  if (literalArithmetic(use.text)) return undefined
  const text = use.text.length > 60 ? `${use.text.slice(0, 60)}…` : use.text
  return `the ${use.kind} '${text}' is evaluated as arithmetic, which reads variables recursively and runs any $(…) in a subscript`
}
