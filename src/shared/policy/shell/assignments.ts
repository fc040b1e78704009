/**
 * Variables a line may set and still auto-run: an allow-list, never a deny-list. Bash and the
 * tools it starts read a great many variables as code or as the program to run (`BASH_ALIASES`,
 * `RANDOM` evaluated as arithmetic, `CARGO_TARGET_*_RUNNER`, `RUSTC_WORKSPACE_WRAPPER`, `PAGER`,
 * `LD_PRELOAD`…), and new ones keep appearing, so only names known to be inert pass: locale,
 * time zone, colour and CI flags and log verbosity, each with the values it takes. Every other
 * assignment, in any form (prefix `A=b cmd`, statement, `export`, `declare`, `read`, `mapfile`,
 * `printf -v`, `for A in`, `getopts`, `let`, `A[i]=`, `A+=`), asks with the variable's name.
 *
 * The values are literal (no `$`, no substitution) and hold no path: an inert name never names a
 * file, so a value with a slash asks (except `TZ`'s zone names such as `Europe/Paris`).
 */
import { lookupTable } from '../../lookup-table'

/** Words: flags, levels, names (`1`, `true`, `en_US.UTF-8`, `xterm-256color`, `mycrate=debug,info`). */
const WORD = /^[A-Za-z0-9_.,:@+=-]*$/
/** A number (terminal width, thread count, hash seed). */
const NUMBER = /^[0-9]*$/
/** An IANA zone or a POSIX TZ string: never absolute, never `..`, never `:path`. */
const ZONE = /^(?![/:])(?!.*\.\.)[A-Za-z0-9_.,:+/-]*$/

const INERT: Readonly<Record<string, RegExp>> = lookupTable({
  CI: WORD,
  NO_COLOR: WORD,
  FORCE_COLOR: WORD,
  CLICOLOR: WORD,
  CLICOLOR_FORCE: WORD,
  COLORTERM: WORD,
  TERM: WORD,
  COLUMNS: NUMBER,
  TZ: ZONE,
  LANG: WORD,
  LANGUAGE: WORD,
  NODE_ENV: WORD,
  NODE_NO_WARNINGS: WORD,
  RUST_BACKTRACE: WORD,
  RUST_LOG: WORD,
  RUST_TEST_THREADS: NUMBER,
  CARGO_TERM_COLOR: WORD,
  PYTHONUNBUFFERED: WORD,
  PYTHONDONTWRITEBYTECODE: WORD,
  PYTHONUTF8: WORD,
  PYTHONHASHSEED: /^([0-9]*|random)$/,
  GIT_TERMINAL_PROMPT: NUMBER
})

/** `LC_ALL`, `LC_CTYPE`, `LC_MESSAGES`…: locale categories (not `LOCPATH`, which names a directory). */
const LOCALE_CATEGORY = /^LC_[A-Z]+$/

/** The names an assignment may set and still auto-run, for messages and the README. */
export const INERT_VARIABLES: readonly string[] = [...Object.keys(INERT), 'LC_*']

const valuePattern = (name: string): RegExp | undefined =>
  Object.prototype.hasOwnProperty.call(INERT, name) ? INERT[name] : LOCALE_CATEGORY.test(name) ? WORD : undefined

export const isInertName = (name: string): boolean => valuePattern(name) !== undefined

/**
 * Why setting `name` to `value` asks, or undefined when it may auto-run. `value` is undefined when
 * the value is not known (a `read` target, an `export NAME`); `literal` is false when the value
 * holds an expansion.
 */
export function assignmentProblem(name: string, value: string | undefined, literal: boolean): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return `'${name}' is not a plain variable name (a subscript is evaluated as code)`
  const pattern = valuePattern(name)
  if (!pattern) return `setting ${name}: only inert variables (${INERT_VARIABLES.join(', ')}) auto-run`
  if (value === undefined) return `setting ${name} to a value known only at run time`
  if (!literal) return `the value of ${name} is not a literal`
  if (!pattern.test(value))
    return `the value of ${name} ('${value.slice(0, 40)}') is not one it takes plainly (a path or code)`
  return undefined
}

/** An assignment word split: `A=1`, `A+=x`, `A[0]=x` (subscript kept apart). */
export function splitAssignment(word: string): { name: string; subscript?: string; value: string } | undefined {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[([^\]]*)\])?\+?=/.exec(word)
  if (!match) return undefined
  return { name: match[1], subscript: match[2], value: word.slice(match[0].length) }
}

/** The variable an assignment word sets (`A=1`, `A+=x`, `A[0]=x`). */
export const assignedName = (word: string): string | undefined => splitAssignment(word)?.name

/** Builtins that declare variables from their arguments. */
export const DECLARING = new Set(['export', 'declare', 'typeset', 'local', 'readonly'])

/** Options of the declaring builtins that only export, make read-only, make global or print. */
const PLAIN_DECLARE_OPTIONS = /^[-+][xrgp]+$/

/**
 * What a declaring builtin's words set: `[name, value?, literal]` for each, and the options that
 * change how the shell reads the variable later (`-i` evaluates every assignment as arithmetic,
 * `-n` makes a name point at another, `-a`/`-A` make subscripts of later assignments code).
 */
export function declared(words: readonly { value: string; expands: boolean }[]): {
  names: { name: string; value?: string; literal: boolean }[]
  options: string[]
  printsOnly: boolean
} {
  const names: { name: string; value?: string; literal: boolean }[] = []
  const options: string[] = []
  let optionsEnd = false
  for (const word of words) {
    if (!optionsEnd && word.value === '--') optionsEnd = true
    else if (!optionsEnd && /^[-+]/.test(word.value) && word.value.length > 1) {
      if (!PLAIN_DECLARE_OPTIONS.test(word.value)) options.push(word.value)
    } else {
      const eq = word.value.indexOf('=')
      if (eq < 0) names.push({ name: word.value, literal: !word.expands })
      else
        names.push({
          name: word.value.slice(0, eq).replace(/\+$/, ''),
          value: word.value.slice(eq + 1),
          literal: !word.expands
        })
    }
  }
  const printsOnly =
    words.some((word) => /^-[A-Za-z]*[pfF]/.test(word.value)) && names.every((entry) => entry.value === undefined)
  return { names, options, printsOnly }
}

/** Options of the variable-setting builtins that take the next word as their value. */
const VALUED: Readonly<Record<string, readonly string[]>> = lookupTable({
  read: ['-d', '-i', '-n', '-N', '-p', '-t', '-u'],
  mapfile: ['-d', '-n', '-O', '-s', '-u', '-C', '-c'],
  readarray: ['-d', '-n', '-O', '-s', '-u', '-C', '-c'],
  printf: [],
  getopts: [],
  wait: []
})

/** Whether namesSetBy may find a name for this command (only the variable-setting builtins set any). */
export const setsNames = (name: string): boolean => Boolean(VALUED[name])

/**
 * The variables a builtin sets from its words (`read PATH`, `read -a PATH`, `printf -v PATH`,
 * `mapfile PATH`, `getopts o PATH`, `wait -p PATH`). Their values are only known at run time.
 */
export function namesSetBy(argv: readonly string[]): string[] {
  const [name, ...args] = argv
  const valued = VALUED[name]
  if (!valued) return []
  const names: string[] = []
  const operands: string[] = []
  for (let i = 0; i < args.length; i++) {
    const word = args[i]
    if (word === '--') {
      operands.push(...args.slice(i + 1))
      break
    }
    if (!word.startsWith('-') || word === '-') operands.push(word)
    else if (
      (name === 'read' && /^-[A-Za-z]*a/.test(word)) ||
      (name === 'printf' && word.startsWith('-v')) ||
      (name === 'wait' && word.startsWith('-p'))
    ) {
      const at = word.search(/[avp]/)
      names.push(at < word.length - 1 ? word.slice(at + 1) : (args[++i] ?? ''))
    } else if (valued.includes(word)) i++
  }
  if (name === 'read') names.push(...(operands.length > 0 ? operands : ['REPLY']))
  else if (name === 'mapfile' || name === 'readarray') names.push(operands[operands.length - 1] ?? 'MAPFILE')
  else if (name === 'getopts') names.push(operands[1] ?? '', 'OPTIND', 'OPTARG')
  return names
}
