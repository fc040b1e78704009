import { dangerousSubstitution } from './dangerous'
import { parseShell } from './parser'
import type { ShellCommand, ShellWord } from './types'

/** A command as the policy matches it: wrappers seen through, binary paths reduced. */
export interface CommandPart {
  command: ShellCommand
  /** argv after wrappers (sudo, env, nohup, timeout, command, time, exec, nice, xargs, stdbuf). */
  argv: string[]
  /** The wrappers removed, outermost first. */
  wrappers: string[]
  /** The program as written (argv[0] after wrappers). */
  program: string
}

export interface PathUse {
  path: string
  /** Only known at run time (`> $OUT`). */
  expands: boolean
  via: string
}

export interface CommandAnalysis {
  /** Set when the line could not be parsed: the policy asks and shows this. */
  error?: string
  parts: CommandPart[]
  writes: PathUse[]
  reads: PathUse[]
  /** Constructs that always need an explicit approval, with the reason. */
  alwaysAsk: string[]
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox'])
const PRIVILEGED = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0'])
const DEVICE_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty'])
const STANDARD_BIN = /^\/(?:usr\/(?:local\/)?)?s?bin\/|^\/opt\/homebrew\/bin\//

export const basename = (program: string): string => {
  const slash = program.lastIndexOf('/')
  return slash >= 0 ? program.slice(slash + 1) : program
}

/** A binary in a system bin dir is the command of that name; `./git` is not `git`. */
export const programForAllow = (program: string): string =>
  STANDARD_BIN.test(program) ? basename(program) : program

interface WrapperSpec {
  /** Options that take a separate argument. */
  argOptions: Set<string>
  /** Words after the options the wrapper consumes itself (timeout's duration). */
  positional?: number
  skipAssignments?: boolean
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { argOptions: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '-R']) },
  doas: { argOptions: new Set(['-u', '-C']) },
  env: { argOptions: new Set(['-u', '-C', '--unset', '--chdir']), skipAssignments: true },
  nohup: { argOptions: new Set() },
  command: { argOptions: new Set() },
  builtin: { argOptions: new Set() },
  time: { argOptions: new Set(['-f', '-o']) },
  exec: { argOptions: new Set(['-a']) },
  nice: { argOptions: new Set(['-n']) },
  ionice: { argOptions: new Set(['-c', '-n', '-p']) },
  timeout: { argOptions: new Set(['-s', '-k', '--signal', '--kill-after']), positional: 1 },
  stdbuf: { argOptions: new Set(['-i', '-o', '-e']) },
  xargs: { argOptions: new Set(['-I', '-n', '-L', '-P', '-d', '-E', '-s', '-a', '-i']) }
}

/** Strip wrapper commands so rules see what really runs. */
function unwrap(argv: string[], alwaysAsk: string[]): { argv: string[]; wrappers: string[] } {
  const wrappers: string[] = []
  let rest = argv
  for (let depth = 0; depth < 8 && rest.length > 0; depth++) {
    const name = basename(rest[0])
    const spec = WRAPPERS[name]
    if (!spec) break
    if (name === 'command' && (rest[1] === '-v' || rest[1] === '-V')) break
    if (name === 'env' && rest.some((word) => word === '-S' || word.startsWith('--split-string')))
      alwaysAsk.push('env -S runs a command line built from a string')
    let i = 1
    while (i < rest.length) {
      const word = rest[i]
      if (word === '--') {
        i++
        break
      }
      if (spec.skipAssignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) i++
      else if (word.startsWith('-') && word.length > 1) i += spec.argOptions.has(word) ? 2 : 1
      else break
    }
    i += spec.positional ?? 0
    wrappers.push(name)
    rest = rest.slice(i)
    if (rest.length === 0 && name === 'xargs') rest = ['echo']
  }
  return { argv: rest, wrappers }
}

const pathUse = (word: ShellWord, via: string): PathUse => ({ path: word.value, expands: word.expands, via })

/** Unquoted `{a,b}` / `{1..3}`: bash turns one word into several, so the words are not what they seem. */
const BRACE_EXPANSION = /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/
const unquotedText = (raw: string): string => raw.replace(/'[^']*'|"(?:[^"\\]|\\.)*"|\\./g, '')

function constructsOf(part: CommandPart, alwaysAsk: string[]): void {
  const program = basename(part.program)
  const firstWord = part.command.words[part.command.words.length - part.argv.length]
  if (part.command.words.some((word) => BRACE_EXPANSION.test(unquotedText(word.raw))))
    alwaysAsk.push(`brace expansion in '${part.command.text}' changes the words that run`)
  if (firstWord?.glob && /[*?]|\[.*\]/.test(unquotedText(firstWord.raw))) alwaysAsk.push(`the program '${part.program}' is a file pattern`)
  if (part.wrappers.some((name) => PRIVILEGED.has(name)) || PRIVILEGED.has(program))
    alwaysAsk.push(`'${part.command.text}' runs with elevated privileges`)
  if (firstWord?.expands) alwaysAsk.push(`the program '${part.program}' is only known at run time`)
  if (program === 'eval') alwaysAsk.push('eval runs a string as a command')
  if (SHELLS.has(program)) {
    const args = part.argv.slice(1)
    if (args.some((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg))) alwaysAsk.push(`${program} -c runs a string as a command`)
    else if (part.command.pipedInput && !args.some((arg) => !arg.startsWith('-')))
      alwaysAsk.push(`piping into ${program} runs whatever the pipe produces`)
    else if (!args.some((arg) => !arg.startsWith('-'))) alwaysAsk.push(`${program} without a script runs commands from its input`)
  }
}

/** `find … -exec cmd {} ;` runs cmd: each -exec/-execdir/-ok/-okdir body is a command of its own. */
function findExecCommands(argv: readonly string[]): string[][] {
  if (basename(argv[0]) !== 'find') return []
  const found: string[][] = []
  for (let i = 1; i < argv.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(argv[i])) continue
    const body: string[] = []
    for (i++; i < argv.length && argv[i] !== ';' && argv[i] !== '+'; i++) body.push(argv[i])
    found.push(body)
  }
  return found
}

/** Parse a command line and collect everything the policy needs to decide it. */
export function analyzeCommand(line: string): CommandAnalysis {
  const parsed = parseShell(line)
  const alwaysAsk: string[] = []
  const danger = dangerousSubstitution(line)
  if (danger) alwaysAsk.push(danger)
  const parts: CommandPart[] = []
  const writes: PathUse[] = []
  const reads: PathUse[] = []
  for (const command of parsed.commands) {
    for (const redirect of command.redirects) {
      const target = redirect.target
      if (!target) continue
      if (redirect.kind === 'write' && !DEVICE_TARGETS.has(target.value)) writes.push(pathUse(target, redirect.op))
      else if (redirect.kind === 'read') reads.push(pathUse(target, redirect.op))
    }
    if (command.words.length === 0) continue
    const raw = command.words.map((word) => word.value)
    const { argv, wrappers } = unwrap(raw, alwaysAsk)
    if (argv.length === 0) continue
    const part: CommandPart = { command, argv, wrappers, program: argv[0] }
    parts.push(part)
    constructsOf(part, alwaysAsk)
    for (const executed of findExecCommands(argv)) {
      const inner = unwrap(executed, alwaysAsk)
      if (inner.argv.length === 0) continue
      const innerPart: CommandPart = { command: { ...command, text: inner.argv.join(' '), words: [] }, argv: inner.argv, wrappers: inner.wrappers, program: inner.argv[0] }
      parts.push(innerPart)
      constructsOf(innerPart, alwaysAsk)
    }
    if (basename(part.program) === 'tee')
      for (const word of command.words.slice(command.words.length - argv.length + 1))
        if (!word.value.startsWith('-')) writes.push(pathUse(word, 'tee'))
  }
  return { error: parsed.ok ? undefined : parsed.error, parts, writes, reads, alwaysAsk }
}
