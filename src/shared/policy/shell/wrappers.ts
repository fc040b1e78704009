import type { ShellWord } from './types'
import { lookupTable } from '../../lookup-table'

export const basename = (program: string): string => {
  const slash = program.lastIndexOf('/')
  return slash >= 0 ? program.slice(slash + 1) : program
}

/** A name commandName leaves as it is: lower-case ASCII letters, digits, `_`, `+`, `-` (no `/`, no `.`, no upper case). */
const PLAIN_NAME = /^[a-z0-9_+-]*$/

/**
 * The command a program word runs on a case-insensitive file system (macOS, Windows), where
 * `SUDO`, `Bash` and `rm.exe` run sudo, bash and rm: how wrappers, shells and the tables are
 * recognised, and one more form deny and ask rules see. Allow matching stays exact.
 */
export const commandName = (program: string): string =>
  // Most names are already plain lower-case ASCII without a path or a `.exe`: the common case returns at once.
  PLAIN_NAME.test(program)
    ? program
    : basename(program)
        .toLowerCase()
        .replace(/\.(exe|com)$/, '')

/**
 * Commands that run the rest of their words as a command. `argOptions` take a separate value;
 * `positional` words after the options belong to the wrapper (timeout's duration, chroot's root).
 * `privileged`: an allow rule must name the wrapper. `runner`: the command it runs is a part of its
 * own, so an allow rule for the runner does not cover it.
 */
interface WrapperSpec {
  argOptions?: readonly string[]
  positional?: number
  assignments?: boolean
  privileged?: boolean
  runner?: boolean
  /** Options after which the wrapper runs no command (`command -v`, `taskset -p`) or runs a string
   * as code (`sudo -s …`, `flock f -c …`): the wrapper stays the part's program and the analysis
   * reads the string. */
  noCommand?: readonly string[]
}

const SUDO_ARGS = [
  '-u',
  '-g',
  '-C',
  '-D',
  '-h',
  '-p',
  '-r',
  '-t',
  '-U',
  '-T',
  '-R',
  '--user',
  '--group',
  '--chdir',
  '--prompt',
  '--host',
  '--role',
  '--type',
  '--other-user',
  '--close-from',
  '--command-timeout',
  '--chroot'
]

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = lookupTable({
  sudo: {
    argOptions: SUDO_ARGS,
    privileged: true,
    assignments: true,
    noCommand: ['-v', '-k', '-K', '-l', '-e', '--validate', '--list', '--edit', '-V', '-s', '-i', '--shell', '--login']
  },
  doas: { argOptions: ['-u', '-C'], privileged: true, noCommand: ['-s'] },
  pkexec: { argOptions: ['--user'], privileged: true },
  run0: { argOptions: ['-u', '--user', '--chdir', '-D', '--setenv', '--unit', '--property'], privileged: true },
  runuser: { argOptions: ['-u', '-g', '-G', '--user', '--group', '--supp-group'], privileged: true },
  env: { argOptions: ['-u', '-C', '--unset', '--chdir', '-P', '-a', '--argv0'], assignments: true },
  nohup: {},
  setsid: {},
  command: { noCommand: ['-v', '-V'] },
  builtin: {},
  exec: { argOptions: ['-a'] },
  time: { argOptions: ['-f', '-o', '--format', '--output'] },
  nice: { argOptions: ['-n', '--adjustment'] },
  ionice: {
    argOptions: ['-c', '-n', '--class', '--classdata'],
    noCommand: ['-p', '-P', '-u', '--pid', '--pgid', '--uid']
  },
  chrt: { argOptions: ['-T', '-P', '-D'], positional: 1, noCommand: ['-p', '--pid'] },
  taskset: { positional: 1, noCommand: ['-p', '--pid'] },
  numactl: {
    argOptions: [
      '-m',
      '-N',
      '-C',
      '-i',
      '-p',
      '--membind',
      '--cpunodebind',
      '--physcpubind',
      '--interleave',
      '--preferred'
    ]
  },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  stdbuf: { argOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  chroot: { argOptions: ['--userspec', '--groups'], positional: 1 },
  flock: {
    argOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'],
    positional: 1,
    noCommand: ['-c', '--command']
  },
  strace: {
    argOptions: [
      '-o',
      '-e',
      '-p',
      '-s',
      '-u',
      '-E',
      '-a',
      '-b',
      '-I',
      '-O',
      '-P',
      '-S',
      '-X',
      '--output',
      '--user',
      '--env'
    ]
  },
  ltrace: {
    argOptions: ['-o', '-e', '-p', '-s', '-u', '-a', '-A', '-D', '-F', '-l', '-n', '-x', '--output', '--user']
  },
  unbuffer: {},
  busybox: {},
  caffeinate: { argOptions: ['-t', '-w'] },
  torsocks: { argOptions: ['-u', '-p', '-a', '-P'] },
  proxychains: { argOptions: ['-f'] },
  proxychains4: { argOptions: ['-f'] },
  faketime: { argOptions: ['-m', '-f'], positional: 1 },
  fakeroot: { argOptions: ['-l', '-s', '-i', '--lib', '--faked'] },
  'xvfb-run': {
    argOptions: ['-n', '-s', '-e', '-f', '-p', '--server-num', '--server-args', '--error-file', '--auth-file']
  },
  'dbus-run-session': { argOptions: ['--config-file', '--dbus-daemon'] },
  unshare: {},
  // Personality and limit wrappers: `linux64 cmd`, `setarch x86_64 -R cmd`, `prlimit --nofile=1 cmd`.
  setarch: { positional: 1 },
  linux32: {},
  linux64: {},
  i386: {},
  x86_64: {},
  uname26: {},
  prlimit: { noCommand: ['-p', '--pid'] },
  // `sg group cmd` runs cmd through a shell; `sg group -c 'cmd'` is read as shell code.
  sg: { positional: 1, noCommand: ['-c'] },
  'ssh-agent': { argOptions: ['-a', '-E', '-P', '-t', '-O'], noCommand: ['-k', '-s', '-c', '-D', '-d', '-l'] },
  'dbus-launch': { argOptions: ['--config-file', '--autolaunch'] },
  catchsegv: {},
  firejail: {},
  nsenter: { argOptions: ['-t', '--target', '-S', '-G', '--setuid', '--setgid'] },
  cgexec: { argOptions: ['-g'] },
  'systemd-run': {
    argOptions: ['-u', '--unit', '-p', '--property', '-E', '--setenv', '--uid', '--gid', '-M', '--machine']
  },
  valgrind: {},
  watchexec: { argOptions: ['-w', '-e', '-i', '--watch', '--exts', '--ignore', '-d', '--debounce'] },
  npx: { argOptions: ['-p', '--package', '--prefix', '-w', '--workspace'], noCommand: ['-c', '--call'] },
  bunx: { argOptions: ['-p', '--package'] },
  uvx: { argOptions: ['--from', '--with', '-p', '--python', '--index-url'] },
  screen: {
    argOptions: ['-S', '-c', '-e', '-h', '-p', '-T', '-t', '-s'],
    noCommand: ['-r', '-R', '-x', '-ls', '-list', '-X', '-wipe', '-Q']
  },
  xargs: {
    argOptions: [
      '-I',
      '-n',
      '-L',
      '-P',
      '-d',
      '-E',
      '-s',
      '-a',
      '--max-args',
      '--max-lines',
      '--max-procs',
      '--delimiter',
      '--eof',
      '--max-chars',
      '--arg-file',
      '--replace'
    ],
    runner: true
  }
})

/**
 * `npm exec cmd`, `uv run cmd`, `bundle exec cmd`…: a subcommand that runs the command after it.
 * Seen as the wrapper `npm exec`, with the options that take a value.
 */
const SUBCOMMAND_RUNNERS: Readonly<Record<string, { subcommands: readonly string[]; spec: WrapperSpec }>> = lookupTable(
  {
    npm: {
      subcommands: ['exec', 'x'],
      spec: { argOptions: ['-p', '--package', '-w', '--workspace'], noCommand: ['-c', '--call'] }
    },
    pnpm: {
      subcommands: ['dlx', 'exec'],
      spec: { argOptions: ['-p', '--package', '--filter', '-F'], noCommand: ['-c', '--shell-mode'] }
    },
    yarn: { subcommands: ['dlx', 'exec'], spec: { argOptions: ['-p', '--package'] } },
    bun: { subcommands: ['x'], spec: { argOptions: ['-p', '--package'] } },
    uv: {
      subcommands: ['run'],
      spec: {
        argOptions: [
          '--with',
          '--from',
          '-p',
          '--python',
          '--directory',
          '--project',
          '--env-file',
          '--extra',
          '--group',
          '--index-url'
        ]
      }
    },
    poetry: { subcommands: ['run'], spec: { argOptions: ['-C', '--directory', '-P', '--project'] } },
    pipx: { subcommands: ['run'], spec: { argOptions: ['--spec', '--python', '--index-url', '--pip-args'] } },
    pdm: { subcommands: ['run'], spec: {} },
    hatch: { subcommands: ['run'], spec: {} },
    conda: { subcommands: ['run'], spec: { argOptions: ['-n', '--name', '-p', '--prefix', '--cwd'] } },
    bundle: { subcommands: ['exec'], spec: {} },
    dotnet: {
      subcommands: ['exec'],
      spec: { argOptions: ['--runtimeconfig', '--depsfile', '--additionalprobingpath'] }
    }
  }
)

/** Options glued to their value (`-uroot`) or given as `--opt=value` take no separate word. */
function optionTakesNext(spec: WrapperSpec, word: string): boolean {
  if (!spec.argOptions) return false
  if (word.includes('=')) return false
  return spec.argOptions.includes(word)
}

export interface Unwrapped {
  /** The words that really run, wrappers removed. */
  words: ShellWord[]
  /** The wrappers removed, outermost first, with the index of the word each starts at. */
  wrappers: { name: string; at: number; privileged: boolean; runner: boolean }[]
  /** Dangerous `env` assignments and `env -S` strings are reported by the analysis. */
  envAssignments: ShellWord[]
  envSplitString?: ShellWord
}

/** Strip wrapper commands so rules see what really runs. */
export function unwrap(words: readonly ShellWord[]): Unwrapped {
  const wrappers: Unwrapped['wrappers'] = []
  const envAssignments: ShellWord[] = []
  let envSplitString: ShellWord | undefined
  let at = 0
  for (let depth = 0; depth < 16 && at < words.length; depth++) {
    let name = commandName(words[at].value)
    let spec = Object.prototype.hasOwnProperty.call(WRAPPERS, name) ? WRAPPERS[name] : undefined
    let i = at + 1
    const runner = Object.prototype.hasOwnProperty.call(SUBCOMMAND_RUNNERS, name) ? SUBCOMMAND_RUNNERS[name] : undefined
    if (!spec && runner && runner.subcommands.includes(words[at + 1]?.value ?? '')) {
      spec = runner.spec
      name = `${name} ${words[at + 1].value}`
      i = at + 2
    }
    if (!spec || words[at].expands) break
    let runsNothing = false
    while (i < words.length) {
      const word = words[i].value
      if (word === '--') {
        i++
        break
      }
      // `env - cmd` is `env -i cmd`.
      if (word === '-' && name === 'env') {
        i++
        continue
      }
      if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
        envAssignments.push(words[i])
        i++
      } else if (word.startsWith('-') && word.length > 1) {
        if (spec.noCommand?.includes(word.split('=')[0])) runsNothing = true
        if (name === 'env' && (word === '-S' || word.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(word))) {
          envSplitString = word.includes('=') ? words[i] : /^-S./.test(word) ? words[i] : words[i + 1]
          runsNothing = true
        }
        i += optionTakesNext(spec, word) ? 2 : 1
      } else break
    }
    i += spec.positional ?? 0
    // `flock FILE -c CMD`: the option comes after the positional word.
    if (spec.noCommand?.includes(words[i]?.value.split('=')[0] ?? '')) runsNothing = true
    if (runsNothing) break
    wrappers.push({ name, at, privileged: Boolean(spec.privileged), runner: Boolean(spec.runner) })
    at = Math.min(i, words.length)
  }
  return { words: words.slice(at), wrappers, envAssignments, envSplitString }
}
