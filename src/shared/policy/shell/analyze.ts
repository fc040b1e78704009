import { argPaths } from './arg-paths'
import { arithmeticProblem, literalArithmetic } from './arithmetic'
import { assignmentProblem, DECLARING, declared, namesSetBy, setsNames, splitAssignment } from './assignments'
import { expandBraces, hasBraceExpansion } from './brace'
import { codeOf, stringLiterals, type EmbeddedCode } from './code'
import { dangerousSubstitution } from './dangerous'
import { parseShell } from './parser'
import type { ArithmeticUse, ShellCommand, ShellWord } from './types'
import { basename, commandName, unwrap } from './wrappers'
import { lookupTable } from '../../lookup-table'

export { basename, commandName } from './wrappers'

/** A command as the policy matches it: wrappers seen through, binary paths reduced. */
export interface CommandPart {
  command: ShellCommand
  /** argv after wrappers (sudo, env, nohup, timeout, xargs, …). */
  argv: string[]
  /** The words of argv, with their place in the line (a run plan rewrites the line there). */
  argvWords: readonly ShellWord[]
  /** The wrappers removed, outermost first. */
  wrappers: string[]
  /** The program as written (argv[0] after wrappers). */
  program: string
  /** The words from each wrapper on, outermost first, then argv: deny and ask rules see every level. */
  levels: string[][]
  /** The levels an allow rule may match: a `sudo` part needs a rule that says `sudo`. */
  allowLevels: string[][]
  /** Runs with elevated privileges through this program: only an allow rule naming it approves the part. */
  privileged?: string
  /** The part comes from code another command carries (`sh -c`, `trap`, `python -c` strings). */
  fromCode?: boolean
  /** Every word of the command, wrappers included, as parsed (offsets into the line that holds it). */
  words: readonly ShellWord[]
  /** The words rules were matched on as programs: each wrapper's name and the program. */
  programWords: Set<ShellWord>
  /** Words the analysis proved are plain data: files a known reader reads, message texts. */
  dataWords: Set<ShellWord>
}

export interface PathUse {
  path: string
  /** Only known at run time (`> $OUT`, `cp x $DEST`). */
  expands: boolean
  /** The redirection operator or the command that uses the path. */
  via: string
  /** A redirection (`>`, `>>`, `&>`), as opposed to a command's own argument. */
  redirect?: boolean
  /** Holds an unquoted glob (`secrets/*`). */
  glob?: boolean
  /** Read with everything below it (`grep -r k dir`, `tar czf x.tgz dir`). */
  recursive?: boolean
  /** Written through an option (`sort -o f`, `find -delete`): asks even inside the workspace, like `>`. */
  option?: boolean
  /** An option's or assignment's value that may be a path: outside, protected or ignored → ask. */
  value?: boolean
}

export interface CommandAnalysis {
  /** Set when the line could not be parsed: the policy asks and shows this. */
  error?: string
  /** The line holds a NUL or another control character: refused as an invalid argument. */
  invalid?: boolean
  parts: CommandPart[]
  /** Files written by redirections and by the commands' own write arguments (`cp`, `tee`, `sed -i`). */
  writes: PathUse[]
  /** Files read by input redirections. */
  reads: PathUse[]
  /** Paths the commands' arguments read. */
  argReads: PathUse[]
  /** Paths named to commands the tables do not know: protected or outside ones ask. */
  named: PathUse[]
  /** Constructs that always need an explicit approval, with the reason. */
  alwaysAsk: string[]
}

const WRITE_OK = new Set(['/dev/null'])
const PRIVILEGED = new Set([
  'sudo',
  'doas',
  'su',
  'pkexec',
  'run0',
  'runuser',
  'sudoedit',
  'gosu',
  'su-exec',
  'setpriv',
  'capsh',
  'chroot'
])
const STANDARD_BIN = /^\/(?:usr\/(?:local\/)?)?s?bin\/|^\/opt\/homebrew\/bin\//
const MAX_DEPTH = 4

/** A binary in a system bin dir is the command of that name; `./git` is not `git`. */
export const programForAllow = (program: string): string =>
  STANDARD_BIN.test(program) && !/\/\.{0,2}\//.test(program) ? basename(program) : program

const pathUse = (word: ShellWord, via: string, extra: Partial<PathUse> = {}): PathUse => ({
  path: word.value,
  expands: word.expands,
  via,
  glob: word.glob || undefined,
  ...extra
})
const values = (words: readonly ShellWord[]): string[] => words.map((word) => word.value)
const unquotedText = (raw: string): string => raw.replace(/'[^']*'|"(?:[^"\\]|\\.)*"|\\./g, '')

class Analyzer {
  readonly analysis: CommandAnalysis = { parts: [], writes: [], reads: [], argReads: [], named: [], alwaysAsk: [] }

  constructor(private readonly depth: number) {}

  line(line: string, fromCode: boolean): void {
    const parsed = parseShell(line)
    if (!parsed.ok) {
      if (parsed.invalid) this.analysis.invalid = true
      this.analysis.error ??= parsed.error
    }
    const danger = dangerousSubstitution(line)
    if (danger) this.ask(danger)
    for (const command of parsed.commands) this.command(command, fromCode)
    for (const variable of parsed.loopVariables ?? []) this.assignment(variable)
    for (const use of parsed.arithmetic ?? []) this.arithmetic(use)
  }

  private arithmetic(use: ArithmeticUse): void {
    const problem = arithmeticProblem(use)
    if (problem) this.ask(problem)
  }

  private ask(reason: string): void {
    if (!this.analysis.alwaysAsk.includes(reason)) this.analysis.alwaysAsk.push(reason)
  }

  private command(command: ShellCommand, fromCode: boolean): void {
    for (const redirect of command.redirects) {
      const target = redirect.target
      if (!target) continue
      if (redirect.kind === 'write' && !WRITE_OK.has(target.value))
        this.analysis.writes.push(pathUse(target, redirect.op, { redirect: true }))
      else if (redirect.kind === 'read') this.analysis.reads.push(pathUse(target, redirect.op))
    }
    for (const assignment of command.assignments) this.assignment(assignment)
    const words = this.expandedWords(command)
    if (words.length > 0) this.argv(words, command, fromCode)
  }

  /** An assignment word (`A=b`, `A[i]=b`, `A+=b`): only inert names with literal values auto-run. */
  private assignment(word: ShellWord): void {
    const split = splitAssignment(word.value)
    if (!split) return
    if (split.subscript !== undefined) this.arithmetic({ text: split.subscript, kind: 'subscript' })
    this.setVariable(split.name, split.value, !word.expands)
  }

  private setVariable(name: string, value: string | undefined, literal: boolean): void {
    const problem = assignmentProblem(name, value, literal)
    if (problem) this.ask(problem)
  }

  /** Brace expansion done as bash does it, so `{rm,-rf,x}` is seen as `rm -rf x`. */
  private expandedWords(command: ShellCommand): ShellWord[] {
    if (!command.words.some((word) => hasBraceExpansion(word.raw))) return command.words
    const out: ShellWord[] = []
    for (const word of command.words) {
      if (!hasBraceExpansion(word.raw)) {
        out.push(word)
        continue
      }
      const pieces = expandBraces(word.raw)
      if (!pieces) {
        this.ask(`the brace expansion in '${word.raw}' cannot be expanded statically`)
        out.push(word)
        continue
      }
      for (const piece of pieces) {
        const reparsed = parseShell(piece)
        const single = reparsed.ok && reparsed.commands.length === 1 ? reparsed.commands[0] : undefined
        if (!single || single.assignments.length > 0 || single.redirects.length > 0) {
          this.ask(`the brace expansion in '${word.raw}' cannot be expanded statically`)
          out.push(word)
          break
        }
        out.push(...single.words.map((w) => ({ ...w, start: word.start, end: word.end })))
      }
    }
    return out
  }

  private argv(words: readonly ShellWord[], command: ShellCommand, fromCode: boolean): void {
    const unwrapped = unwrap(words)
    let wrappers = unwrapped.wrappers
    let inner = unwrapped.words
    if (inner.length === 0 && wrappers.length > 0) {
      const last = wrappers[wrappers.length - 1]
      // `… | xargs` runs echo; a wrapper alone (`nohup`) is the command itself.
      if (last.name === 'xargs')
        inner = [{ ...words[last.at], raw: 'echo', value: 'echo', quoted: false, expands: false, glob: false }]
      else {
        inner = words.slice(last.at)
        wrappers = wrappers.slice(0, -1)
      }
    }
    for (const assignment of unwrapped.envAssignments) this.assignment(assignment)
    const argv = values(inner)
    const levels = [...wrappers.map((wrapper) => values(words.slice(wrapper.at))), argv]
    const privileged = wrappers.findIndex((wrapper) => wrapper.privileged)
    const runner = wrappers.reduce((last, wrapper, i) => (wrapper.runner ? i : last), -1)
    const allowLevels = levels.slice(runner + 1, privileged >= 0 ? privileged + 1 : levels.length)
    const program = inner[0].value
    const programWords = new Set([...wrappers.map((wrapper) => words[wrapper.at]), inner[0]])
    const part: CommandPart = {
      command,
      argv,
      wrappers: wrappers.map((w) => w.name),
      program,
      levels,
      allowLevels,
      argvWords: inner,
      words,
      programWords,
      dataWords: dataWords(inner, command, fromCode)
    }
    const elevated =
      privileged >= 0
        ? wrappers[privileged].name
        : PRIVILEGED.has(commandName(program))
          ? commandName(program)
          : undefined
    if (elevated) part.privileged = elevated
    if (fromCode) part.fromCode = true
    this.analysis.parts.push(part)
    this.constructs(inner, command)
    for (const wrapper of wrappers)
      if (['time', 'strace', 'ltrace'].includes(wrapper.name))
        for (let i = wrapper.at + 1; i < words.length && words[i].value.startsWith('-'); i++)
          if ((words[i].value === '-o' || words[i].value === '--output') && words[i + 1])
            this.analysis.writes.push(pathUse(words[i + 1], wrapper.name))
    this.paths(inner, part)
    const code = codeOf(inner, command)
    code.alwaysAsk.forEach((reason) => this.ask(reason))
    for (const embedded of code.code) this.embedded(embedded, part.command.text || part.argv.join(' '))
    for (const body of findExecBodies(inner)) this.argv(body, command, fromCode)
  }

  private constructs(inner: readonly ShellWord[], command: ShellCommand): void {
    const [first] = inner
    if (first.expands) this.ask(`the program '${first.value}' is only known at run time`)
    else if (first.glob && /[*?]|\[.*\]/.test(unquotedText(first.raw)))
      this.ask(`the program '${first.value}' is a file pattern`)
    const name = commandName(first.value)
    const args = inner.slice(1)
    if (DECLARING.has(name)) this.declaration(name, args)
    if (setsNames(name)) for (const set of namesSetBy([name, ...values(args)])) this.setVariable(set, undefined, false)
    this.arithmeticBuiltins(name, args)
    if (name === 'make' || name === 'gmake')
      for (const word of args) if (splitAssignment(word.value)) this.assignment(word)
    if (name === 'launchctl' && /^(setenv|unsetenv|config)$/.test(args[0]?.value ?? ''))
      this.ask(`launchctl ${args[0].value} sets variables for every program started later`)
    if (command.words.length === 0) return
  }

  /** `export`, `declare`, `typeset`, `local`, `readonly`: each name set, and options that change how bash reads it. */
  private declaration(name: string, args: readonly ShellWord[]): void {
    const found = declared(args)
    if (found.printsOnly) return
    for (const option of found.options)
      this.ask(`${name} ${option} changes how the shell evaluates the variables it declares`)
    for (const entry of found.names) {
      const subscript = /\[(.*)\]$/.exec(entry.name)
      if (subscript) this.arithmetic({ text: subscript[1], kind: 'subscript' })
      this.setVariable(entry.name.replace(/\[.*\]$/, ''), entry.value ?? '', entry.literal)
    }
  }

  /**
   * Builtins that evaluate their words as arithmetic or as variable names with a subscript (which
   * bash evaluates, running any `$(…)` inside): `let`, `[[ … -eq … ]]`, `test -v 'a[…]'`, `unset 'a[…]'`.
   */
  private arithmeticBuiltins(name: string, args: readonly ShellWord[]): void {
    if (name === 'let') {
      for (const word of args) this.arithmetic({ text: word.expands ? '$' : word.value, kind: 'arithmetic command' })
      return
    }
    if (name !== '[[' && name !== 'test' && name !== '[' && name !== 'unset') return
    const texts = args.map((word) => word.value)
    if (name === '[[') {
      texts.forEach((text, i) => {
        if (!ARITHMETIC_TESTS.has(text)) return
        for (const operand of [args[i - 1], args[i + 1]])
          if (
            operand &&
            !(literalArithmetic(operand.value) && !operand.expands) &&
            !NUMERIC_PARAMETER.test(operand.value)
          )
            this.ask(
              `'[[ … ${text} … ]]' evaluates '${operand.value}' as arithmetic, which reads variables and runs subscripts`
            )
      })
    }
    if (name === '[[' || name === 'test' || name === '[' || name === 'unset') {
      for (const text of texts)
        if (text.includes('[') && text !== '[[' && text !== '[')
          this.ask(`${name} evaluates the subscript in '${text}' as code`)
    }
  }

  private paths(inner: readonly ShellWord[], part: CommandPart): void {
    const via = basename(inner[0].value)
    const found = argPaths(inner)
    for (const word of found.writes) this.analysis.writes.push(pathUse(word, via))
    for (const word of found.optionWrites) this.analysis.writes.push(pathUse(word, via, { option: true }))
    for (const { word, recursive } of found.reads) {
      this.analysis.argReads.push(pathUse(word, via, recursive ? { recursive } : {}))
      part.dataWords.add(word)
    }
    for (const word of found.unknown) this.analysis.named.push(pathUse(word, via))
    for (const word of found.values) this.analysis.named.push(pathUse(word, via, { value: true }))
    found.starts.forEach((reason) => this.ask(reason))
  }

  private embedded(code: EmbeddedCode, where: string): void {
    if (this.depth >= MAX_DEPTH) {
      this.ask(`code nested ${MAX_DEPTH} levels deep in '${where}' is not analysed`)
      return
    }
    const texts = code.language === 'shell' ? [code.text] : stringLiterals(code.text)
    for (const text of texts) {
      const inner = new Analyzer(this.depth + 1)
      inner.line(text, true)
      const sub = inner.analysis
      if (sub.invalid) this.analysis.invalid = true
      // Foreign string literals are only searched for commands: one that is not shell is no error.
      if (code.language === 'foreign' && sub.error) continue
      if (sub.error) this.ask(`the code '${text.slice(0, 60)}' could not be analysed (${sub.error})`)
      this.analysis.parts.push(...sub.parts.map((part) => ({ ...part, fromCode: true })))
      this.analysis.writes.push(...sub.writes)
      this.analysis.argReads.push(...sub.argReads)
      this.analysis.named.push(...sub.named)
      sub.alwaysAsk.forEach((reason) => this.ask(reason))
    }
  }
}

/** `[[ a -eq b ]]` and friends evaluate both sides as arithmetic. */
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
/** Parameters that are always numbers: `$#`, `$?`, `$$`, `$!`, `${#name}`. */
const NUMERIC_PARAMETER = /^(\$[#?$!]|\$\{#[A-Za-z_][A-Za-z0-9_]*\})$/

/** Programs whose quoted arguments are message text, and options whose value is a message. */
const MESSAGE_OPTIONS = new Set(['-m', '--message'])

/**
 * Words the analysis can prove are plain data: a git message, and echo's quoted text when echo
 * prints to the terminal (in a substitution or a pipe its output may become a command: `ed`, `$(…)`).
 */
function dataWords(argv: readonly ShellWord[], command: ShellCommand, fromCode: boolean): Set<ShellWord> {
  const data = new Set<ShellWord>()
  const name = commandName(argv[0].value)
  if (name === 'echo' && command.origin === 'top' && !fromCode && command.redirects.length === 0)
    for (const word of argv.slice(1)) if (word.quoted && !word.expands) data.add(word)
  if (
    name === 'git' &&
    ['commit', 'tag', 'stash', 'merge', 'notes'].some((sub) => argv.some((word) => word.value === sub))
  )
    argv.forEach((word, i) => {
      if (i > 0 && MESSAGE_OPTIONS.has(argv[i - 1].value) && !word.expands) data.add(word)
    })
  return data
}

/** The options after which find and fd run a command of their own. */
const EXEC_OPTIONS: Readonly<Record<string, readonly string[]>> = lookupTable({
  find: ['-exec', '-execdir', '-ok', '-okdir'],
  fd: ['-x', '--exec', '-X', '--exec-batch'],
  fdfind: ['-x', '--exec', '-X', '--exec-batch']
})

/** `find … -exec cmd {} ;` and `fd -x cmd` run cmd: each body is a command of its own. */
function findExecBodies(argv: readonly ShellWord[]): ShellWord[][] {
  const options = EXEC_OPTIONS[commandName(argv[0].value)]
  if (!options) return []
  const found: ShellWord[][] = []
  for (let i = 1; i < argv.length; i++) {
    if (!options.includes(argv[i].value)) continue
    const body: ShellWord[] = []
    for (i++; i < argv.length && argv[i].value !== ';' && argv[i].value !== '+'; i++) body.push(argv[i])
    if (body.length > 0) found.push(body)
  }
  return found
}

/** Parse a command line and collect everything the policy needs to decide it. */
export function analyzeCommand(line: string): CommandAnalysis {
  const analyzer = new Analyzer(0)
  analyzer.line(line, false)
  const analysis = analyzer.analysis
  // echo's text is only proven data when nothing in the line reads it from a pipe.
  if (analysis.parts.some((part) => part.command.pipedInput))
    for (const part of analysis.parts) if (commandName(part.program) === 'echo') part.dataWords.clear()
  return analysis
}
