import { sedScript, sedScripts } from './sed-script'
import type { ShellCommand, ShellWord } from './types'
import { commandName } from './wrappers'
import { lookupTable } from '../../lookup-table'

/**
 * Code a command runs although it arrives as data: `sh -c '…'`, `eval …`, `trap '…' EXIT`,
 * `python -c '…'`, a heredoc fed to a shell. `shell` code is parsed and its commands become parts
 * of the line; `foreign` code (another language) is searched for string literals that read as
 * shell commands, so a denied command inside it is still denied.
 */
export interface EmbeddedCode {
  text: string
  language: 'shell' | 'foreign'
}

export interface CodeFindings {
  code: EmbeddedCode[]
  /** Why the line may never be auto-approved; empty when the command only carries code to decide. */
  alwaysAsk: string[]
}

export const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'yash',
  'posh',
  'rbash',
  'pwsh',
  'powershell',
  'cmd',
  'cmd.exe',
  'nu',
  'elvish',
  'xonsh'
])

/**
 * Interpreters and the options whose value is program text. `valued`: options that take the next
 * word as their value (`python -W ignore -c …`), so that word is not the script.
 */
interface InterpreterSpec {
  clusterLetters?: string
  options?: readonly string[]
  subcommand?: string
  valued?: readonly string[]
}
const NODE_VALUED = [
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--input-type',
  '--env-file',
  '--title',
  '--cwd',
  '--preload',
  '--inspect-port',
  '--watch-path',
  '--stack-size',
  '--max-old-space-size',
  '--openssl-config',
  '--icu-data-dir',
  '--redirect-warnings',
  '--disable-warning',
  '--experimental-policy',
  '--report-dir',
  '--diagnostic-dir'
]
const INTERPRETERS: ReadonlyArray<[RegExp, InterpreterSpec]> = [
  [/^(python[0-9.]*|pypy[0-9.]*)$/i, { clusterLetters: 'c', valued: ['-W', '-X', '-Q', '--check-hash-based-pycs'] }],
  [/^(node|nodejs|bun)$/i, { options: ['-e', '--eval', '-p', '--print', '-pe', '-ep'], valued: NODE_VALUED }],
  [/^deno$/i, { subcommand: 'eval' }],
  [/^perl[0-9.]*$/i, { clusterLetters: 'eE', valued: ['-I', '-M', '-m'] }],
  [
    /^ruby[0-9.]*$/i,
    {
      clusterLetters: 'e',
      valued: ['-I', '-r', '-C', '-E', '--encoding', '-F', '--external-encoding', '--internal-encoding']
    }
  ],
  [/^php[0-9.]*$/i, { options: ['-r', '-R', '-B', '-E'], valued: ['-d', '-c', '-z', '-t'] }],
  [
    /^(osascript|lua[0-9.]*|luajit|Rscript|R|julia|expect|tclsh|wish|jshell|groovy|scala|ghc|runghc|guile|racket|sbcl|clojure)$/i,
    { options: ['-e', '--eval', '-c', '--expr', '--exec'] }
  ],
  [/^(vim|nvim|vi|ex|view|gvim)$/i, { options: ['-c', '--cmd'] }],
  [/^emacs$/i, { options: ['--eval', '-eval', '--execute'] }]
]

/** Options of other tools whose value is a command line run by a shell. */
const COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = lookupTable({
  tar: ['--to-command', '--use-compress-program', '-I', '--rsh-command', '--info-script', '--new-volume-script', '-F'],
  rsync: ['-e', '--rsh', '--rsync-path'],
  git: ['--upload-pack', '--receive-pack', '--exec'],
  zip: ['-TT', '--unzip-command'],
  man: ['-P', '--pager', '-H', '--html'],
  flock: ['-c', '--command'],
  npx: ['-c', '--call'],
  rg: ['--pre'],
  npm: ['-c', '--call'],
  pnpm: ['-c'],
  su: ['-c', '--command', '--session-command'],
  sg: ['-c'],
  runuser: ['-c', '--command', '--session-command'],
  script: ['-c', '--command'],
  ssh: [],
  scp: ['-S']
})

/** `git -c key=value` keys that name a program or a hook: they change what runs. */
const GIT_EXEC_KEY =
  /^(core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy|alternaterefscommand|attributesfile)|alias\.|diff\.external|diff\..+\.(textconv|command)|filter\.|credential\.|sequence\.editor|gpg\.|uploadpack\.|receivepack\.|protocol\.|include\.|includeif\.|merge\..+\.driver|pager\.|web\.browser|browser\.|man\.|remote\..+\.(uploadpack|receivepack|proxy)|http\..*proxy|ssh\.variant|submodule\..+\.update)/i

const valueOf = (words: readonly ShellWord[], i: number, option: string): { text?: string; next: number } => {
  const word = words[i].value
  if (word.startsWith(`${option}=`)) return { text: word.slice(option.length + 1), next: i + 1 }
  if (word === option) return { text: words[i + 1]?.value, next: i + 2 }
  // `-c'code'`, `-ecode`: a short option glued to its value.
  if (/^-[A-Za-z]$/.test(option) && word.startsWith(option) && word.length > 2)
    return { text: word.slice(2), next: i + 1 }
  return { next: i + 1 }
}

const stdinSources = (command: ShellCommand): EmbeddedCode[] =>
  command.redirects.flatMap((redirect): EmbeddedCode[] =>
    redirect.kind === 'heredoc'
      ? [{ text: redirect.body ?? '', language: 'shell' }]
      : redirect.kind === 'herestring' && redirect.target
        ? [{ text: redirect.target.value, language: 'shell' }]
        : []
  )
const readsStdinFromFile = (command: ShellCommand): boolean =>
  command.redirects.some((redirect) => redirect.kind === 'read' && redirect.target?.value !== '/dev/null')

/** A script path that is a pipe: `<(curl …)`, `/dev/stdin`, `/dev/fd/0`. Its text is unknown until run. */
const readsFromPipe = (word: ShellWord): boolean =>
  /^[<=]\(/.test(word.raw) || /^\/dev\/(stdin|fd\/\d+|tty)$|^\/proc\/(self|\d+)\/fd\/\d+$/.test(word.value)

/** `source FILE` runs FILE in this shell: a pipe as FILE hides the commands. */
function sourceCode(argv: readonly ShellWord[], found: CodeFindings): void {
  const script = argv.slice(1).find((word) => !word.value.startsWith('-') || word.value === '-')
  if (script && readsFromPipe(script))
    found.alwaysAsk.push(`${argv[0].value} runs a script it reads from a pipe ('${script.raw}')`)
}

function shellCode(name: string, argv: readonly ShellWord[], command: ShellCommand, found: CodeFindings): void {
  let i = 1
  let inline = false
  let stdin = false
  while (i < argv.length) {
    const word = argv[i].value
    if (word === '--' || word === '-') {
      stdin ||= word === '-'
      i++
      break
    }
    if (/^[-+][oO]$/.test(word) || word === '--rcfile' || word === '--init-file') i += 2
    else if (word.startsWith('--')) i++
    else if (/^[-+][A-Za-z]+$/.test(word)) {
      if (word[0] === '-' && word.includes('c')) inline = true
      if (word[0] === '-' && word.includes('s')) stdin = true
      i++
    } else if (/^-[A-Za-z]*c/.test(word)) {
      inline = true
      i++
    } else break
  }
  if (inline) {
    found.alwaysAsk.push(`${name} -c runs a string as a command`)
    const text = argv[i]?.value
    if (text !== undefined) found.code.push({ text, language: 'shell' })
    return
  }
  if (i < argv.length && !stdin) {
    if (readsFromPipe(argv[i])) found.alwaysAsk.push(`${name} runs a script it reads from a pipe ('${argv[i].raw}')`)
    return
  }
  const fed = stdinSources(command)
  found.code.push(...fed)
  if (command.pipedInput) found.alwaysAsk.push(`piping into ${name} runs whatever the pipe produces`)
  else if (fed.length > 0) found.alwaysAsk.push(`${name} runs the script it reads from a heredoc`)
  else if (readsStdinFromFile(command)) found.alwaysAsk.push(`${name} runs the script it reads from its input`)
  else found.alwaysAsk.push(`${name} without a script runs commands from its input`)
}

/** The interpreter spec of each command name seen, so the patterns run once per name (kept small). */
const interpreterOf = new Map<string, InterpreterSpec | null>()

function interpreterSpec(name: string): InterpreterSpec | null {
  let spec = interpreterOf.get(name)
  if (spec === undefined) {
    spec = INTERPRETERS.find(([pattern]) => pattern.test(name))?.[1] ?? null
    if (interpreterOf.size > 2000) interpreterOf.clear()
    interpreterOf.set(name, spec)
  }
  return spec
}

function interpreterCode(
  name: string,
  argv: readonly ShellWord[],
  command: ShellCommand,
  found: CodeFindings
): boolean {
  const spec = interpreterSpec(name)
  if (!spec) return false
  if (spec.subcommand) {
    if (argv.slice(1).some((word) => word.value === spec.subcommand)) {
      found.alwaysAsk.push(`${name} ${spec.subcommand} runs a string as code`)
      found.code.push({
        text: argv
          .slice(1)
          .map((w) => w.value)
          .join(' '),
        language: 'foreign'
      })
    }
    return true
  }
  let script = false
  for (let i = 1; i < argv.length && !script;) {
    const word = argv[i].value
    if (!word.startsWith('-') || word === '-' || word === '--') {
      script = word !== '-' && word !== '--'
      break
    }
    if (spec.valued?.includes(word)) {
      i += 2
      continue
    }
    const option = spec.options?.find(
      (o) =>
        word === o ||
        word.startsWith(`${o}=`) ||
        (/^-[A-Za-z]$/.test(o) && word.startsWith(o) && !word.startsWith('--'))
    )
    const cluster =
      spec.clusterLetters && /^-[A-Za-z]+/.test(word) && !word.startsWith('--')
        ? [...spec.clusterLetters].find((l) => word.slice(1).includes(l))
        : undefined
    if (option || cluster) {
      found.alwaysAsk.push(`${name} ${option ?? `-${cluster}`} runs a string as code`)
      const letterAt = cluster ? word.indexOf(cluster) : -1
      const glued = cluster && letterAt < word.length - 1 ? word.slice(letterAt + 1) : undefined
      const text = glued ?? (option ? valueOf(argv, i, option).text : argv[i + 1]?.value)
      if (text !== undefined) found.code.push({ text, language: 'foreign' })
      return true
    }
    i++
  }
  if (!script && (command.pipedInput || stdinSources(command).length > 0)) {
    found.alwaysAsk.push(`${name} runs the program it reads from its input`)
    found.code.push(...stdinSources(command).map((code) => ({ ...code, language: 'foreign' as const })))
  }
  return true
}

/** sed's `e` command and `s///e` run shell commands; `w` writes a file; a script from a file is unknown. */
function sedCode(argv: readonly ShellWord[], found: CodeFindings): void {
  const { scripts, fromFile } = sedScripts(argv.slice(1).map((word) => word.value))
  if (fromFile) found.alwaysAsk.push('sed reads its script from a file, which may run commands (e) or write files (w)')
  for (const script of scripts) {
    const sed = sedScript(script)
    if (sed.runs)
      found.alwaysAsk.push(
        `the sed script '${script.slice(0, 60)}' runs a shell command (the e command or the e flag of s)`
      )
    if (sed.writes) found.alwaysAsk.push(`the sed script '${script.slice(0, 60)}' writes a file (w)`)
    if (sed.unreadable && !sed.runs)
      found.alwaysAsk.push(`the sed script '${script.slice(0, 60)}' could not be read, so what it runs is unknown`)
  }
}

/** `git grep -O`/`--open-files-in-pager` runs a pager program named in its value (or the config's). */
function gitGrepCode(argv: readonly ShellWord[], found: CodeFindings): void {
  const sub = argv.findIndex((word, i) => i > 0 && word.value === 'grep')
  if (sub < 0) return
  for (const word of argv.slice(sub + 1)) {
    if (word.value === '--') break
    if (/^--open-files-in-pager(=|$)/.test(word.value) || /^-[A-Za-z]*O/.test(word.value)) {
      found.alwaysAsk.push('git grep -O opens the files in a program it names')
      return
    }
  }
}

/** `make --eval`/`-E` adds makefile text, whose recipes and `$(shell …)` run commands. */
function makeCode(argv: readonly ShellWord[], found: CodeFindings): void {
  for (const word of argv.slice(1)) {
    if (word.value === '--') break
    if (/^--eval(=|$)/.test(word.value) || /^-[A-Za-z]*E/.test(word.value)) {
      found.alwaysAsk.push('make --eval runs makefile text given on the command line')
      return
    }
  }
}

/** awk and friends run commands through `system()` and `|` pipes in their program text. */
function awkCode(argv: readonly ShellWord[], found: CodeFindings): void {
  if (argv.slice(1).some((word) => /^(-l|--load|-i|--include)(=|$)|^-[li]./.test(word.value)))
    found.alwaysAsk.push('awk loads an extension or a source file, which can run code')
  const program = argv
    .slice(1)
    .find((word, i, rest) => !word.value.startsWith('-') && !['-f', '-v', '-F'].includes(rest[i - 1]?.value ?? ''))
  if (program && /system\s*\(|\|\s*(getline|&)|\|\s*"|print[^;]*\||@load|@include/.test(program.value)) {
    found.alwaysAsk.push(`the awk program runs commands`)
    found.code.push({ text: program.value, language: 'foreign' })
  }
  // `print > "file"` writes a file the path checks never see.
  if (program && /\bprintf?\b[^;}]*>/.test(program.value)) found.alwaysAsk.push('the awk program writes to a file')
}

function optionCode(name: string, argv: readonly ShellWord[], found: CodeFindings): void {
  const options = COMMAND_OPTIONS[name] ?? []
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i].value
    if (name === 'ssh' || name === 'scp' || name === 'sftp') {
      const config = /^-o(.*)$/.exec(word)
      const setting = config ? config[1] || argv[i + 1]?.value || '' : ''
      const command = /^(ProxyCommand|LocalCommand|KnownHostsCommand|PermitLocalCommand)\s*[= ]\s*(.*)$/i.exec(setting)
      if (command) found.code.push({ text: command[2], language: 'shell' })
    }
    for (const option of options) {
      if (word !== option && !word.startsWith(option)) continue
      const { text } = valueOf(argv, i, option)
      if (text !== undefined) found.code.push({ text: text.replace(/^exec=/, ''), language: 'shell' })
    }
    if (name === 'tar' && word.startsWith('--checkpoint-action=exec='))
      found.code.push({ text: word.slice('--checkpoint-action=exec='.length), language: 'shell' })
  }
  if (
    (name === 'su' || name === 'runuser' || name === 'script') &&
    !argv.some((w) => options.some((o) => w.value === o || w.value.startsWith(`${o}=`)))
  )
    found.alwaysAsk.push(`${name} without -c runs an interactive shell`)
}

/** Options of build and test tools that name the program they run (`go test -exec prog`). */
function programOptions(name: string, argv: readonly ShellWord[], found: CodeFindings): void {
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i].value
    if (word === '--') break
    if (name === 'go') {
      const option = /^--?(exec|toolexec)(=|$)/.exec(word)
      if (!option) continue
      found.alwaysAsk.push(`go -${option[1]} runs the built binaries through another program`)
      const text = option[2] === '=' ? word.slice(word.indexOf('=') + 1) : argv[i + 1]?.value
      if (text) found.code.push({ text, language: 'shell' })
    } else if (name === 'cargo') {
      const value = word.startsWith('--config=') ? word.slice(9) : word === '--config' ? (argv[i + 1]?.value ?? '') : ''
      if (/runner|linker|rustc|wrapper|\bar\b/i.test(value))
        found.alwaysAsk.push('cargo --config sets a program cargo runs')
    } else if (/^--(script-shell|node-options|userconfig|globalconfig|shell)(=|$)/.test(word))
      found.alwaysAsk.push(`${name} ${word.split('=')[0]} changes the program ${name} runs`)
  }
}

function gitConfigAssignments(argv: readonly ShellWord[], found: CodeFindings): void {
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i].value
    if (!word.startsWith('-')) break
    const value =
      word === '-c' || word === '--config-env'
        ? (argv[++i]?.value ?? '')
        : word.startsWith('--config-env=')
          ? word.slice(13)
          : word.startsWith('-c')
            ? word.slice(2)
            : ''
    if (GIT_EXEC_KEY.test(value)) found.alwaysAsk.push(`git -c ${value.split('=')[0]} changes the program git runs`)
    if (word === '--exec-path' || word.startsWith('--exec-path='))
      found.alwaysAsk.push('git --exec-path changes the programs git runs')
  }
}

/** The code a command carries, and whether that alone makes the line ask. */
export function codeOf(argv: readonly ShellWord[], command: ShellCommand): CodeFindings {
  const found: CodeFindings = { code: [], alwaysAsk: [] }
  if (argv.length === 0) return found
  const name = commandName(argv[0].value)
  const args = argv.slice(1)
  if (SHELLS.has(name)) shellCode(name, argv, command, found)
  else if (name === 'source' || name === '.') sourceCode(argv, found)
  else if (name === 'tmux') tmuxCode(args, found)
  else if (
    name === 'gdb' &&
    args.some((w) => /^--?(ex|iex|eval-command|init-eval-command|x|command)(=|$)/.test(w.value))
  )
    found.alwaysAsk.push('gdb runs debugger commands, and they can run shell commands')
  else if ((name === 'at' && !args.some((w) => /^-[lrdc]$/.test(w.value))) || name === 'batch')
    found.alwaysAsk.push(`${name} schedules commands it reads from its input or a file`)
  else if (name === 'crontab' && !args.some((w) => /^-[lT]$/.test(w.value)))
    found.alwaysAsk.push('crontab installs commands that run later')
  else if (name === 'hash' && args.some((w) => /^-[A-Za-z]*p/.test(w.value)))
    found.alwaysAsk.push('hash -p changes the program a later command name runs')
  else if (name === 'enable' && args.some((w) => !/^-[aps]+$/.test(w.value)))
    found.alwaysAsk.push('enable loads or turns off builtins, which changes what later commands run')
  else if (name === 'eval') {
    found.alwaysAsk.push('eval runs a string as a command')
    found.code.push({ text: args.map((w) => w.value).join(' '), language: 'shell' })
  } else if (name === 'alias') {
    found.alwaysAsk.push('an alias definition changes what later commands run')
    for (const word of args) {
      const eq = word.value.indexOf('=')
      if (eq > 0) found.code.push({ text: word.value.slice(eq + 1), language: 'shell' })
    }
  } else if (name === 'trap') {
    const operands = args.filter((w) => !/^-[lp-]*$/.test(w.value) || w.value === '-')
    if (operands.length >= 2 && operands[0].value !== '-')
      found.code.push({ text: operands[0].value, language: 'shell' })
  } else if (name === 'watch') watchCode(argv, found)
  else if (name === 'parallel') parallelCode(argv, found)
  else if (name === 'sudo' || name === 'doas') {
    const shell = args.findIndex((w) => ['-s', '-i', '--shell', '--login'].includes(w.value))
    if (shell >= 0) {
      found.alwaysAsk.push(`${name} ${args[shell].value} runs a shell`)
      const rest = args.slice(shell + 1).filter((w) => !w.value.startsWith('-'))
      if (rest.length > 0) found.code.push({ text: rest.map((w) => w.value).join(' '), language: 'shell' })
    }
  } else if (name === 'env') {
    const split = args.findIndex(
      (w) => w.value === '-S' || w.value.startsWith('--split-string') || /^-[A-Za-z]*S/.test(w.value)
    )
    if (split >= 0) {
      found.alwaysAsk.push('env -S runs a command line built from a string')
      const word = args[split].value
      const text = word.includes('=')
        ? word.slice(word.indexOf('=') + 1)
        : /^-[A-Za-z]*S./.test(word)
          ? word.slice(word.indexOf('S') + 1)
          : args
              .slice(split + 1)
              .map((w) => w.value)
              .join(' ')
      found.code.push({ text, language: 'shell' })
    }
  } else if (/^(g|m|n)?awk$/.test(name)) awkCode(argv, found)
  else if (name === 'sed' || name === 'gsed') sedCode(argv, found)
  else if (name === 'make' || name === 'gmake') makeCode(argv, found)
  else if (name === 'find' && args.some((w) => w.value === '-ok' || w.value === '-okdir'))
    found.alwaysAsk.push('find -ok asks on the terminal before running a command: never auto-approved')
  else if (!interpreterCode(name, argv, command, found)) {
    if (name === 'git') {
      gitConfigAssignments(argv, found)
      gitGrepCode(argv, found)
    }
    if (['go', 'cargo', 'npm', 'pnpm', 'yarn'].includes(name)) programOptions(name, argv, found)
    optionCode(name, argv, found)
  }
  return found
}

/** tmux subcommands that run a shell command given as their last words; send-keys types into a shell. */
const TMUX_RUNS = new Set([
  'new',
  'new-session',
  'new-window',
  'neww',
  'split-window',
  'splitw',
  'respawn-pane',
  'respawnp',
  'respawn-window',
  'respawnw',
  'run-shell',
  'run',
  'display-popup',
  'popup',
  'pipe-pane',
  'pipep'
])
const TMUX_VALUED = new Set([
  '-s',
  '-n',
  '-t',
  '-c',
  '-x',
  '-y',
  '-e',
  '-F',
  '-l',
  '-L',
  '-S',
  '-f',
  '-d',
  '-w',
  '-h',
  '-b',
  '-T',
  '-E',
  '-p'
])

function tmuxCode(args: readonly ShellWord[], found: CodeFindings): void {
  let i = 0
  while (i < args.length && args[i].value.startsWith('-'))
    i += ['-L', '-S', '-f', '-T', '-c'].includes(args[i].value) ? 2 : 1
  const sub = args[i]?.value ?? 'new-session'
  if (sub === 'send-keys' || sub === 'send') found.alwaysAsk.push('tmux send-keys types into a shell')
  if (!TMUX_RUNS.has(sub)) return
  const rest: string[] = []
  for (i++; i < args.length; i++) {
    const word = args[i].value
    if (/^-[A-Za-z]+$/.test(word)) {
      if (TMUX_VALUED.has(word) && !['-d', '-h', '-b', '-p'].includes(word)) i++
    } else rest.push(word)
  }
  if (rest.length > 0) found.code.push({ text: rest.join(' '), language: 'shell' })
}

function watchCode(argv: readonly ShellWord[], found: CodeFindings): void {
  const argOptions = ['-n', '--interval', '-q', '--equexit']
  let i = 1
  let exec = false
  while (i < argv.length && argv[i].value.startsWith('-')) {
    const word = argv[i].value
    if (word === '--') {
      i++
      break
    }
    if (word === '-x' || word === '--exec') exec = true
    i += argOptions.includes(word) ? 2 : 1
  }
  const rest = argv.slice(i).map((w) => w.value)
  if (rest.length > 0) found.code.push({ text: exec ? rest.map(quote).join(' ') : rest.join(' '), language: 'shell' })
}

function parallelCode(argv: readonly ShellWord[], found: CodeFindings): void {
  const argOptions = [
    '-j',
    '--jobs',
    '-S',
    '--sshlogin',
    '-N',
    '-n',
    '-L',
    '-a',
    '--arg-file',
    '-d',
    '--delimiter',
    '--colsep',
    '-C',
    '-I',
    '--tmpdir',
    '--env',
    '--workdir',
    '--wd',
    '--delay',
    '--timeout',
    '--joblog',
    '--results',
    '--halt',
    '--memfree',
    '--load',
    '-E',
    '--tag-string',
    '--rpl'
  ]
  let i = 1
  while (i < argv.length && argv[i].value.startsWith('-') && argv[i].value !== ':::' && argv[i].value !== '::::')
    i += argOptions.includes(argv[i].value) ? 2 : 1
  const words: string[] = []
  for (; i < argv.length && !/^:{3,4}\+?$/.test(argv[i].value); i++) words.push(argv[i].value)
  if (words.length > 0) {
    found.code.push({ text: words.join(' '), language: 'shell' })
    return
  }
  // Without a command, parallel runs its inputs as command lines: `::: 'rm x'` runs rm.
  const inputs: string[] = []
  let fromFileOrStdin = i >= argv.length
  for (let source = ''; i < argv.length; i++) {
    const word = argv[i].value
    if (/^:{3,4}\+?$/.test(word)) source = word
    else if (source.startsWith('::::')) fromFileOrStdin = true
    else inputs.push(word)
  }
  found.code.push(...inputs.map((text) => ({ text, language: 'shell' as const })))
  if (fromFileOrStdin) found.alwaysAsk.push('parallel without a command runs the lines it reads as commands')
}

const quote = (word: string): string =>
  /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`

/** String literals of foreign code, each a candidate shell command (`os.system("rm -rf /")`). */
export function stringLiterals(code: string): string[] {
  const out: string[] = []
  const pattern = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g
  for (let match = pattern.exec(code); match; match = pattern.exec(code)) {
    const text = (match[1] ?? match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1')
    if (/[A-Za-z]/.test(text)) out.push(text)
  }
  return out
}
