import type { ShellWord } from './types'
import { commandName } from './wrappers'
import { lookupTable } from '../../lookup-table'

/** What a command does with the paths its arguments name. */
export interface ArgPaths {
  /** Written (created, replaced, removed, changed). */
  writes: ShellWord[]
  /**
   * Written or deleted through an option (`sort -o f`, `sed -i`, `find -delete`): asks even inside
   * the workspace, as a `>` redirection does, since an edit reaches the disk only through the review.
   */
  optionWrites: ShellWord[]
  /** Read; `recursive` ones are read with everything below them. */
  reads: { word: ShellWord; recursive: boolean }[]
  /** Named by a tool the tables do not know: asks when protected or outside the workspace. */
  unknown: ShellWord[]
  /** Option values that may name a path (`--basetemp=x`, `-o/x`, `grep -f x`): outside, protected or ignored → ask. */
  values: ShellWord[]
  /** Options that start a program of their own (`rg --pre`): the line always asks, for this reason. */
  starts: string[]
}

/** Builtins and tools whose arguments are not paths. */
const NO_PATHS = new Set([
  'echo',
  'printf',
  'true',
  'false',
  'test',
  '[',
  '[[',
  ']]',
  'sleep',
  'date',
  'expr',
  'seq',
  'yes',
  'kill',
  'killall',
  'exit',
  'return',
  'let',
  'read',
  'shift',
  'wait',
  'jobs',
  'fg',
  'bg',
  'which',
  'type',
  'hash',
  'history',
  'alias',
  'unalias',
  'unset',
  'trap',
  'ulimit',
  'umask',
  'whoami',
  'id',
  'uname',
  'hostname',
  'printenv',
  'tput',
  'clear',
  'pwd',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'set',
  'shopt',
  'command',
  'builtin',
  'getopts',
  'break',
  'continue',
  'eval',
  ':',
  'ps',
  'pgrep',
  'pkill',
  'nproc',
  'uptime',
  'free',
  'env'
])

/** Tools that only read the paths they name. The value: whether they read directories recursively. */
const READERS: Readonly<Record<string, 'flat' | 'recursive' | 'flag'>> = lookupTable({
  cat: 'flat',
  head: 'flat',
  tail: 'flat',
  less: 'flat',
  more: 'flat',
  bat: 'flat',
  nl: 'flat',
  wc: 'flat',
  file: 'flat',
  stat: 'flat',
  cmp: 'flat',
  diff: 'flag',
  md5sum: 'flat',
  sha1sum: 'flat',
  sha256sum: 'flat',
  sha512sum: 'flat',
  shasum: 'flat',
  cksum: 'flat',
  hexdump: 'flat',
  od: 'flat',
  strings: 'flat',
  cut: 'flat',
  column: 'flat',
  jq: 'flat',
  yq: 'flat',
  comm: 'flat',
  join: 'flat',
  paste: 'flat',
  realpath: 'flat',
  readlink: 'flat',
  basename: 'flat',
  dirname: 'flat',
  cd: 'flat',
  pushd: 'flat',
  source: 'flat',
  '.': 'flat',
  ls: 'flag',
  grep: 'flag',
  egrep: 'flag',
  fgrep: 'flag',
  zgrep: 'flag',
  rg: 'recursive',
  ag: 'recursive',
  ack: 'recursive',
  tree: 'recursive',
  du: 'recursive',
  find: 'recursive',
  fd: 'recursive',
  wc_l: 'flat'
})

const RECURSIVE_FLAG = /^-(?:[A-Za-z]*[rRa][A-Za-z]*)$|^--(recursive|archive|dereference-recursive)$/

const options = (args: readonly ShellWord[]): ShellWord[] =>
  args.filter((w) => w.value.startsWith('-') && w.value !== '-')
const operands = (args: readonly ShellWord[], valued: readonly string[] = []): ShellWord[] => {
  const out: ShellWord[] = []
  let ended = false
  for (let i = 0; i < args.length; i++) {
    const value = args[i].value
    if (!ended && value === '--') ended = true
    else if (!ended && value.startsWith('-') && value !== '-') {
      if (valued.includes(value)) i++
    } else out.push(args[i])
  }
  return out
}
const optionValue = (args: readonly ShellWord[], names: readonly string[]): ShellWord[] => {
  const out: ShellWord[] = []
  for (let i = 0; i < args.length; i++) {
    const value = args[i].value
    for (const name of names) {
      if (value === name && args[i + 1]) out.push(args[i + 1])
      else if (value.startsWith(`${name}=`)) out.push({ ...args[i], value: value.slice(name.length + 1) })
      else if (/^-[A-Za-z]$/.test(name) && value.startsWith(name) && value.length > 2 && !value.startsWith('--'))
        out.push({ ...args[i], value: value.slice(2) })
    }
  }
  return out
}
const at = (word: ShellWord, value: string): ShellWord => ({ ...word, value })

/** Characters that make a value glued to a short option (`-o/x`, `-I../inc`) worth resolving as a path. */
const PATHISH = /[/.~$]/

/** Options that take a value in one of the tools the tables know: the word after one may be a path. */
const VALUED = new Set([
  '-t',
  '--target-directory',
  '-S',
  '--suffix',
  '-m',
  '--mode',
  '-o',
  '--owner',
  '-g',
  '--group',
  '-s',
  '--size',
  '-r',
  '--reference',
  '-d',
  '--date',
  '-i',
  '-p',
  '-D',
  '-F',
  '-B',
  '-e',
  '--expression',
  '-f',
  '--file',
  '-l',
  '--line-length',
  '--rsh',
  '-P',
  '-c',
  '--exclude',
  '--include',
  '--filter',
  '--rsync-path',
  '--port',
  '--password-file',
  '--log-file',
  '-C',
  '--directory',
  '-T',
  '--files-from',
  '-X',
  '--exclude-from',
  '-I',
  '-b',
  '-n',
  '-x',
  '-TT',
  '-K',
  '--config',
  '-A',
  '--max-count',
  '--glob',
  '--type',
  '-L',
  '-k',
  '--key',
  '--field-separator',
  '--output',
  '-O',
  '--output-document',
  '--output-dir',
  '--ignore-file',
  '--pre-glob',
  '--backup-dir',
  '--temp-dir',
  '--partial-dir',
  '--compare-dest',
  '--copy-dest',
  '--link-dest',
  '--from-file',
  '--to-file',
  '--git-dir',
  '--work-tree',
  '--exec-path',
  '-d',
  '--data',
  '--data-binary',
  '--data-urlencode',
  '--json',
  '--form',
  '-H',
  '--header',
  '--cacert',
  '--capath',
  '--cert',
  '--key',
  '-E',
  '--netrc-file',
  '--upload-file',
  '--prefix',
  '--manifest-path',
  '--rootdir'
])

const NO_TEXT_OPTIONS: ReadonlySet<string> = new Set()
/** git options whose value is text, never a path (`--grep=/fix/` is a pattern). */
const GIT_TEXT_OPTIONS: ReadonlySet<string> = new Set([
  '--grep',
  '--author',
  '--committer',
  '--format',
  '--pretty',
  '--since',
  '--until',
  '--after',
  '--before',
  '--date',
  '-m',
  '--message',
  '--invert-grep',
  '--word-diff-regex',
  '--color-words',
  '-I',
  '--ignore-matching-lines'
])

/**
 * The values options carry that may be paths: `--opt=V`, a short option glued to its value (`-oV`;
 * in a flag cluster `-xo/V` the value may start at the `/` or `~`, so that reading is checked too),
 * and the word after an option that takes one.
 */
function optionValues(args: readonly ShellWord[], textOptions: ReadonlySet<string> = NO_TEXT_OPTIONS): ShellWord[] {
  const out: ShellWord[] = []
  for (let i = 0; i < args.length; i++) {
    const word = args[i]
    const value = word.value
    if (value === '--') break
    if (!value.startsWith('-') || value === '-') continue
    const eq = value.indexOf('=')
    if (textOptions.has(eq > 0 ? value.slice(0, eq) : value)) continue
    if (VALUED.has(value) && args[i + 1]) out.push(args[i + 1])
    if (value.startsWith('--')) {
      if (eq > 0) out.push(at(word, value.slice(eq + 1)))
      continue
    }
    const glued = value.slice(2)
    if (glued === '' || !PATHISH.test(glued)) continue
    out.push(at(word, glued))
    if (eq > 0) out.push(at(word, value.slice(eq + 1)))
    const cluster = /^-[A-Za-z]+([/~].*)$/.exec(value)
    if (cluster && cluster[1] !== glued) out.push(at(word, cluster[1]))
  }
  return out
}

/**
 * The paths an assignment's value may name (`X=/a:~/b`, `PYTEST_ADDOPTS='--basetemp /v'`): bash
 * expands `~` after `=` and `:`, and a tool may split the value on spaces or read `opt=path` in it.
 */
export function assignmentValues(word: ShellWord): ShellWord[] {
  const value = word.value.slice(word.value.indexOf('=') + 1)
  if (value === '') return []
  const pieces = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value) ? [value] : value.split(/[\s:]+/)
  const out: ShellWord[] = []
  for (const piece of pieces.filter((p) => p !== '')) {
    out.push(at(word, piece))
    const eq = piece.indexOf('=')
    if (eq >= 0) out.push(at(word, piece.slice(eq + 1)))
  }
  return out
}

const recursiveBy = (args: readonly ShellWord[]): boolean => options(args).some((w) => RECURSIVE_FLAG.test(w.value))
const reads = (words: readonly ShellWord[], recursive: boolean) => words.map((word) => ({ word, recursive }))
const empty = (): ArgPaths => ({ writes: [], optionWrites: [], reads: [], unknown: [], values: [], starts: [] })
/** The file names downloads of the URL arguments are saved under (`http://e/a/.bashrc` → `.bashrc`), in `dir` when given. */
function urlFileNames(args: readonly ShellWord[], dir: ShellWord | undefined): ShellWord[] {
  const out: ShellWord[] = []
  for (const word of args) {
    const url = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*\/?([^?#]*)/.exec(word.value)
    if (!url) continue
    const name = url[1].slice(url[1].lastIndexOf('/') + 1)
    let decoded = name
    try {
      decoded = decodeURIComponent(name)
    } catch {
      // A malformed escape is kept as written.
    }
    for (const file of new Set([name, decoded]))
      if (file !== '')
        out.push({
          ...word,
          value: dir ? `${dir.value}/${file}` : file,
          expands: word.expands || Boolean(dir?.expands)
        })
  }
  return out
}

/** The current directory, as a path the command names implicitly. */
const here = (at: ShellWord): ShellWord => ({ ...at, value: '.', quoted: false, expands: false, glob: false })

/** The write arguments of the common tools that change files. */
function writerPaths(argv0: ShellWord, name: string, args: readonly ShellWord[]): ArgPaths | undefined {
  const out = empty()
  switch (name) {
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'link': {
      const target = optionValue(args, ['-t', '--target-directory'])
      const files = operands(args, [
        '-t',
        '--target-directory',
        '-S',
        '--suffix',
        '-m',
        '--mode',
        '-o',
        '--owner',
        '-g',
        '--group'
      ])
      const dest = target.length > 0 ? target : files.slice(-1)
      const sources = target.length > 0 ? files : files.slice(0, -1)
      out.writes.push(...dest)
      // A link to a protected or outside place lets any later write reach it: its target counts as written.
      if (name === 'mv' || name === 'ln' || name === 'link') out.writes.push(...sources)
      else out.reads.push(...reads(sources, recursiveBy(args)))
      return out
    }
    case 'rm':
    case 'rmdir':
    case 'unlink':
    case 'shred':
    case 'truncate':
    case 'touch':
    case 'mkdir':
    case 'mkfifo':
    case 'mknod':
    case 'chattr':
    case 'setfacl':
    case 'gzip':
    case 'gunzip':
    case 'bzip2':
    case 'bunzip2':
    case 'xz':
    case 'unxz':
    case 'zstd':
    case 'srm':
    case 'trash':
    case 'patch':
      out.writes.push(
        ...operands(args, [
          '-s',
          '--size',
          '-m',
          '--mode',
          '-r',
          '--reference',
          '-d',
          '--date',
          '-t',
          '-i',
          '-o',
          '-p',
          '-D',
          '-F',
          '-B'
        ])
      )
      out.optionWrites.push(...optionValue(args, name === 'patch' ? ['-o', '--output'] : []))
      return out
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      const files = operands(args, ['--reference'])
      out.writes.push(...(args.some((w) => w.value.startsWith('--reference')) ? files : files.slice(1)))
      return out
    }
    case 'tee':
      out.writes.push(...operands(args))
      return out
    case 'dd':
      for (const word of args) {
        if (word.value.startsWith('of=')) out.writes.push({ ...word, value: word.value.slice(3) })
        if (word.value.startsWith('if='))
          out.reads.push({ word: { ...word, value: word.value.slice(3) }, recursive: false })
      }
      return out
    case 'sed': {
      const inPlace = options(args).some((w) => /^-[A-Za-z]*i/.test(w.value) || w.value.startsWith('--in-place'))
      const scripted = args.some(
        (w) => /^-[A-Za-z]*[ef]$/.test(w.value) || w.value.startsWith('--expression') || w.value.startsWith('--file')
      )
      const files = operands(args, ['-e', '--expression', '-f', '--file', '-l', '--line-length']).slice(
        scripted ? 0 : 1
      )
      if (inPlace) out.optionWrites.push(...files)
      else out.reads.push(...reads(files, false))
      return out
    }
    case 'rsync':
    case 'scp': {
      const files = operands(args, [
        '-e',
        '--rsh',
        '-i',
        '-o',
        '-P',
        '-F',
        '-S',
        '-c',
        '-l',
        '--exclude',
        '--include',
        '--filter',
        '-f',
        '--rsync-path',
        '--port',
        '--password-file',
        '--log-file'
      ])
      const local = (w: ShellWord) => !/^[^/]*:/.test(w.value)
      out.writes.push(...files.slice(-1).filter(local))
      out.reads.push(...reads(files.slice(0, -1).filter(local), name === 'scp' ? recursiveBy(args) : true))
      out.optionWrites.push(...optionValue(args, ['--log-file']))
      if (args.some((w) => w.value === '--remove-source-files'))
        out.optionWrites.push(...files.slice(0, -1).filter(local))
      return out
    }
    case 'tar':
    case 'bsdtar':
      return tarPaths(argv0, args)
    case '7z':
    case '7za':
    case '7zr':
    case '7zz':
      return sevenZipPaths(argv0, args)
    case 'zip': {
      const files = operands(args, ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '-TT', '-O', '--output-file'])
      out.writes.push(...files.slice(0, 1), ...optionValue(args, ['-O', '--output-file']))
      out.reads.push(...reads(files.slice(1), recursiveBy(args)))
      // `-m` moves the files into the archive: it deletes them.
      if (args.some((w) => w.value === '--move' || /^-[A-Za-z]*m[A-Za-z]*$/.test(w.value)))
        out.optionWrites.push(...files.slice(1))
      return out
    }
    case 'unzip': {
      const dir = optionValue(args, ['-d'])
      out.writes.push(...(dir.length > 0 ? dir : [here(argv0)]))
      out.reads.push(...reads(operands(args, ['-d', '-x', '-P']).slice(0, 1), false))
      return out
    }
    case 'curl': {
      // `curl file:///x` reads the local file x.
      out.reads.push(
        ...reads(
          args.filter((w) => /^file:/i.test(w.value)),
          false
        )
      )
      out.optionWrites.push(
        ...optionValue(args, [
          '-o',
          '--output',
          '--output-dir',
          '-c',
          '--cookie-jar',
          '-D',
          '--dump-header',
          '--trace',
          '--trace-ascii',
          '--stderr'
        ])
      )
      // `-O` saves each download under the URL's own file name, `.bashrc` included.
      const remoteName = args.some(
        (w) => /^--remote-name(-all)?$/.test(w.value) || /^-[A-Za-z]*O[A-Za-z]*$/.test(w.value)
      )
      if (remoteName) out.optionWrites.push(...urlFileNames(args, optionValue(args, ['--output-dir'])[0]))
      out.reads.push(...reads(optionValue(args, ['-K', '--config', '-T', '--upload-file', '-b', '--cookie']), false))
      return out
    }
    case 'wget': {
      out.reads.push(
        ...reads(
          args.filter((w) => /^file:/i.test(w.value)),
          false
        )
      )
      const document = optionValue(args, ['-O', '--output-document'])
      out.optionWrites.push(
        ...document,
        ...optionValue(args, ['-P', '--directory-prefix', '-o', '--output-file', '-a', '--append-output'])
      )
      // Without -O each download is saved under the URL's own file name.
      if (document.length === 0)
        out.writes.push(...urlFileNames(args, optionValue(args, ['-P', '--directory-prefix'])[0]))
      return out
    }
    case 'base64':
    case 'basenc':
      // BSD base64 writes `-o file` and reads `-i file`.
      out.optionWrites.push(...optionValue(args, ['-o', '--output']))
      out.reads.push(
        ...reads(
          [
            ...operands(args, ['-o', '--output', '-i', '--input', '-b', '--break', '-w', '--wrap']),
            ...optionValue(args, ['-i', '--input'])
          ],
          false
        )
      )
      return out
    case 'xxd': {
      // `xxd in out` writes out.
      const files = operands(args, [
        '-c',
        '-cols',
        '-g',
        '-groupsize',
        '-l',
        '-len',
        '-o',
        '-offset',
        '-s',
        '-seek',
        '-n',
        '-name'
      ])
      out.reads.push(...reads(files.slice(0, 1), false))
      out.writes.push(...files.slice(1, 2))
      return out
    }
    case 'sort':
      out.optionWrites.push(...optionValue(args, ['-o', '--output']))
      out.reads.push(
        ...reads(operands(args, ['-o', '--output', '-k', '-t', '-S', '-T', '--key', '--field-separator']), false)
      )
      return out
    case 'uniq': {
      const files = operands(args, ['-f', '-s', '-w'])
      out.reads.push(...reads(files.slice(0, 1), false))
      out.writes.push(...files.slice(1, 2))
      return out
    }
    case 'split':
    case 'csplit':
      out.writes.push(...operands(args).slice(1))
      out.reads.push(...reads(operands(args).slice(0, 1), false))
      return out
    case 'openssl':
    case 'ssh-keygen':
      out.writes.push(...optionValue(args, ['-out', '-f', '-keyout']))
      return out
    case 'git':
      return gitPaths(args)
  }
  return undefined
}

/** `git config core.hooksPath x` writes .git/config; `git clone url dir` writes dir. */
function gitPaths(args: readonly ShellWord[]): ArgPaths {
  const out = empty()
  let i = 0
  while (i < args.length && args[i].value.startsWith('-'))
    i += ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'].includes(args[i].value) ? 2 : 1
  const sub = args[i]?.value
  const rest = args.slice(i + 1)
  const at = (value: string): ShellWord => ({ ...(args[i] ?? args[0]), value })
  if (sub === 'config') {
    const reading =
      rest.some((w) =>
        /^--(get|get-all|get-regexp|get-urlmatch|list|show-origin|show-scope|name-only)$|^-l$/.test(w.value)
      ) || rest.some((w) => w.value === 'get' || w.value === 'list')
    const values = operands(rest, ['-f', '--file', '--blob', '--type', '--default', '--comment'])
    const writing =
      !reading &&
      (values.length >= 2 ||
        rest.some((w) =>
          /^--(add|unset|unset-all|replace-all|rename-section|remove-section|edit)$|^-e$/.test(w.value)
        ) ||
        values[0]?.value === 'set' ||
        values[0]?.value === 'unset')
    if (writing) {
      const file = optionValue(rest, ['-f', '--file'])
      if (file.length > 0) out.writes.push(...file)
      else if (rest.some((w) => w.value === '--global')) out.writes.push(at('~/.gitconfig'))
      else if (rest.some((w) => w.value === '--system')) out.writes.push(at('/etc/gitconfig'))
      else out.writes.push(at('.git/config'))
    }
    return out
  }
  if (sub === 'clone')
    out.writes.push(
      ...operands(rest, [
        '-b',
        '--branch',
        '-o',
        '--origin',
        '--depth',
        '-c',
        '--config',
        '--reference',
        '--separate-git-dir',
        '-u',
        '--upload-pack',
        '--template',
        '-j',
        '--jobs',
        '--filter'
      ]).slice(1, 2)
    )
  if (sub === 'init')
    out.writes.push(
      ...operands(rest, ['--template', '--separate-git-dir', '-b', '--initial-branch', '--object-format']).slice(0, 1)
    )
  // `git diff --output=f`, `git log -o f`… write the file they name.
  // `git diff --output=f`, `git log --output f`, `git format-patch -o dir` write what they name;
  // elsewhere `-o` is a flag (`git ls-files -o`, `git grep -o`).
  out.optionWrites.push(
    ...optionValue(
      rest,
      sub === 'format-patch'
        ? ['--output', '-o', '--output-directory']
        : sub === 'commit' || sub === 'clone'
          ? []
          : ['--output']
    )
  )
  for (const word of rest) {
    if (word.value.startsWith('-') || word.value === sub) continue
    out.unknown.push(word)
    // `HEAD:secrets/key.pem` and `:path` name a file as the revision holds it.
    const revisionPath = /^[^:/]*:(?!\/\/)(.+)$/.exec(word.value)
    if (revisionPath) out.unknown.push({ ...word, value: revisionPath[1] })
  }
  return out
}

/** `find . -delete` removes what it finds; `-fprint f` writes f. */
function findPaths(args: readonly ShellWord[]): ArgPaths {
  const out = empty()
  const starts: ShellWord[] = []
  for (const word of args) {
    if (word.value.startsWith('-') || word.value === '(' || word.value === '!') break
    starts.push(word)
  }
  const roots =
    starts.length > 0
      ? starts
      : [{ ...(args[0] ?? { raw: '.', start: 0, end: 0, quoted: false, expands: false, glob: false }), value: '.' }]
  if (args.some((w) => w.value === '-delete')) out.optionWrites.push(...roots)
  out.optionWrites.push(...optionValue(args, ['-fprint', '-fprint0', '-fprintf', '-fls']))
  out.reads.push(...reads(roots, true))
  // `-newer f`, `-samefile f`, `-newerXY f` read the file they name.
  for (let i = 0; i < args.length - 1; i++)
    if (/^-(?:[acm]?newer|newer[aBcmt][aBcmt]|samefile)$/.test(args[i].value)) out.values.push(args[i + 1])
  return out
}

/** GNU and BSD tar's short options that take a value, and its long ones. */
const TAR_VALUED_LETTERS = 'bCfFgHIKLNTVX'
const TAR_VALUED_LONG = new Set([
  '--file',
  '--directory',
  '--files-from',
  '--exclude-from',
  '--listed-incremental',
  '--newer',
  '--after-date',
  '--starting-file',
  '--volno-file',
  '--label',
  '--format',
  '--blocking-factor',
  '--tape-length',
  '--use-compress-program',
  '--info-script',
  '--new-volume-script',
  '--to-command',
  '--rsh-command',
  '--index-file',
  '--owner',
  '--group',
  '--mode',
  '--mtime',
  '--transform',
  '--xform',
  '--exclude',
  '--suffix',
  '--newer-mtime',
  '--record-size',
  '--checkpoint-action'
])

interface TarOptions {
  /** `-c`, `--create`… as given: short letters prefixed with `-`. */
  flags: Set<string>
  values: Array<[string, ShellWord]>
  operands: ShellWord[]
}

/**
 * tar's arguments as tar reads them: the old bundle (`czf F dir`: each value letter takes the next
 * word in turn), clusters with a glued value (`-cfF`, `-cvf F`), `--opt=V` and `--opt V`.
 */
function tarOptions(args: readonly ShellWord[]): TarOptions {
  const out: TarOptions = { flags: new Set(), values: [], operands: [] }
  let i = 0
  const pending: string[] = []
  const first = args[0]?.value ?? ''
  if (first !== '' && !first.startsWith('-')) {
    for (const letter of first) {
      out.flags.add(`-${letter}`)
      if (TAR_VALUED_LETTERS.includes(letter)) pending.push(`-${letter}`)
    }
    i = 1
    for (; pending.length > 0 && i < args.length; i++) out.values.push([pending.shift() as string, args[i]])
  }
  for (; i < args.length; i++) {
    const word = args[i]
    const value = word.value
    if (value === '--') {
      out.operands.push(...args.slice(i + 1))
      break
    }
    if (value.startsWith('--')) {
      const eq = value.indexOf('=')
      const name = eq > 0 ? value.slice(0, eq) : value
      out.flags.add(name)
      if (eq > 0) out.values.push([name, at(word, value.slice(eq + 1))])
      else if (TAR_VALUED_LONG.has(name) && args[i + 1]) out.values.push([name, args[++i]])
    } else if (value.startsWith('-') && value !== '-') {
      for (let j = 1; j < value.length; j++) {
        const letter = value[j]
        out.flags.add(`-${letter}`)
        if (!TAR_VALUED_LETTERS.includes(letter)) continue
        const glued = value.slice(j + 1)
        if (glued !== '') out.values.push([`-${letter}`, at(word, glued)])
        else if (args[i + 1]) out.values.push([`-${letter}`, args[++i]])
        break
      }
    } else out.operands.push(word)
  }
  return out
}

/** Archive writers check their output like any other writer; extraction writes where it lands. */
function tarPaths(argv0: ShellWord, args: readonly ShellWord[]): ArgPaths {
  const out = empty()
  const { flags, values, operands: files } = tarOptions(args)
  const has = (...names: string[]) => names.some((name) => flags.has(name))
  const valuesOf = (...names: string[]) => values.filter(([name]) => names.includes(name)).map(([, word]) => word)
  // `-f -` is the standard input or output.
  const archives = valuesOf('-f', '--file').filter((w) => w.value !== '-')
  const dirs = valuesOf('-C', '--directory')
  out.reads.push(...reads(valuesOf('-T', '--files-from', '-X', '--exclude-from'), false))
  out.writes.push(...valuesOf('-g', '--listed-incremental', '--index-file'))
  if (has('-x', '--extract', '--get')) {
    // Without -C the archive's entries land in the current directory, `.git/hooks/…` included.
    if (!has('-O', '--to-stdout')) out.writes.push(...(dirs.length > 0 ? dirs : [here(argv0)]))
    out.reads.push(...reads(archives, false))
  } else if (
    has('-c', '-r', '-u', '-A', '--create', '--append', '--update', '--concatenate', '--catenate', '--delete')
  ) {
    out.writes.push(...archives)
    out.reads.push(...reads(files, true), ...reads(dirs, true))
    if (has('--remove-files')) out.optionWrites.push(...files)
  } else out.reads.push(...reads([...archives, ...files], false))
  out.values.push(...values.map(([, word]) => word))
  return out
}

/** `7z a F files` writes F; `7z x F -oDIR` writes DIR (or here); `-sdel` deletes the files it adds. */
function sevenZipPaths(argv0: ShellWord, args: readonly ShellWord[]): ArgPaths {
  const out = empty()
  const words = operands(args)
  const [command, archive, ...files] = words
  const option = (prefix: string) =>
    args
      .filter((w) => w.value.startsWith(prefix) && w.value.length > prefix.length)
      .map((w) => at(w, w.value.slice(prefix.length)))
  const sub = command?.value.toLowerCase()
  if (!archive) return out
  if (sub === 'a' || sub === 'u' || sub === 'd' || sub === 'rn') {
    out.writes.push(archive)
    out.reads.push(...reads(files, true))
    if (args.some((w) => w.value === '-sdel')) out.optionWrites.push(...files)
  } else if (sub === 'x' || sub === 'e') {
    if (!args.some((w) => w.value === '-so'))
      out.writes.push(...(option('-o').length > 0 ? option('-o') : [here(argv0)]))
    out.reads.push(...reads([archive], false))
  } else out.reads.push(...reads([archive], false))
  out.values.push(...option('-w'), ...option('-i@'), ...option('-x@'))
  return out
}

/** ripgrep options that start programs: a preprocessor, a hostname program, decompressors. */
function rgStarts(args: readonly ShellWord[]): string[] {
  const out: string[] = []
  for (const word of args) {
    const value = word.value
    if (value === '--') break
    if (value === '--pre' || value.startsWith('--pre=')) out.push(`'rg --pre' runs a program of its own on every file`)
    else if (value === '--hostname-bin' || value.startsWith('--hostname-bin='))
      out.push(`'rg --hostname-bin' runs a program of its own`)
    else if (value === '--search-zip' || /^-[A-Za-z]*z[A-Za-z]*$/.test(value))
      out.push(`'rg -z' starts decompression programs`)
  }
  return out
}

/** Options that write a file in tools the tables do not know: `-o`/`--output` and their kin. */
const WRITE_OPTIONS = ['-o', '--output', '--output-file', '--outfile', '--out-file', '--log-file', '--logfile']
/** Tools whose `-o` is no output file (`pytest -o ini=value`, `ssh -o Opt=v`): its value is only checked as a value. */
const O_IS_NOT_OUTPUT = new Set([
  'pytest',
  'py.test',
  'ssh',
  'scp',
  'sftp',
  'mount',
  'ps',
  'lsblk',
  'findmnt',
  'journalctl',
  'lsof',
  'xargs',
  'make'
])
const DECLARING_PATHS = new Set(['export', 'declare', 'typeset', 'local', 'readonly'])
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_.-]*(\[[^\]]*\])?\+?=/

/** The paths a command's arguments name, by what the command does with them. */
export function argPaths(argv: readonly ShellWord[]): ArgPaths {
  if (argv.length === 0) return empty()
  const name = commandName(argv[0].value)
  const args = argv.slice(1)
  if (DECLARING_PATHS.has(name))
    return { ...empty(), values: args.filter((w) => ASSIGNMENT.test(w.value)).flatMap(assignmentValues) }
  if (NO_PATHS.has(name)) return empty()
  const found = programPaths(argv, name, args)
  found.values.push(...optionValues(args, name === 'git' ? GIT_TEXT_OPTIONS : NO_TEXT_OPTIONS))
  if (name === 'rg') found.starts.push(...rgStarts(args))
  return found
}

function programPaths(argv: readonly ShellWord[], name: string, args: readonly ShellWord[]): ArgPaths {
  if (name === 'find') return findPaths(args)
  const writer = writerPaths(argv[0], name, args)
  if (writer) return writer
  const kind = READERS[name]
  if (kind) {
    const files = operands(args, [
      '-e',
      '-f',
      '-m',
      '-A',
      '-B',
      '-C',
      '--max-count',
      '-g',
      '--glob',
      '-t',
      '--type',
      '-n',
      '-c',
      '--exclude',
      '--include',
      '-I',
      '-L',
      '-P'
    ])
    const recursive = kind === 'recursive' || (kind === 'flag' && recursiveBy(args))
    // `grep -r KEY` and `rg KEY` search the current directory; their first operand is the pattern.
    const searches =
      name === 'grep' ||
      name === 'egrep' ||
      name === 'fgrep' ||
      name === 'zgrep' ||
      name === 'rg' ||
      name === 'ag' ||
      name === 'ack'
    const patternGiven = args.some((w) => /^(-e|-f|--regexp|--file)(=|$)/.test(w.value))
    const paths = searches && !patternGiven ? files.slice(1) : files
    const dot = { ...argv[0], value: '.' }
    const out: ArgPaths = { ...empty(), reads: reads(paths.length === 0 && recursive ? [dot] : paths, recursive) }
    // The pattern may be a path after an option the table does not list as taking a value (`grep --exclude-from /x k f`).
    if (searches && !patternGiven) out.values.push(...files.slice(0, 1))
    if (name === 'tree') out.optionWrites.push(...optionValue(args, ['-o']))
    return out
  }
  const out = empty()
  for (const word of args) {
    if (word.value.startsWith('-')) continue
    out.unknown.push(word)
    // `make DESTDIR=/x`, `cmake -D…`: an assignment handed to the tool may name a path.
    if (ASSIGNMENT.test(word.value)) out.values.push(...assignmentValues(word))
  }
  const writeOptions = O_IS_NOT_OUTPUT.has(name) ? WRITE_OPTIONS.slice(1) : WRITE_OPTIONS
  out.optionWrites.push(...optionValue(args, writeOptions))
  return out
}
