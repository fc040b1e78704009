import type { ShellWord } from './types'
import { commandName } from './wrappers'

/** What a command does with the paths its arguments name. */
export interface ArgPaths {
  /** Written (created, replaced, removed, changed). */
  writes: ShellWord[]
  /** Read; `recursive` ones are read with everything below them. */
  reads: { word: ShellWord; recursive: boolean }[]
  /** Named by a tool the tables do not know: asks when protected or outside the workspace. */
  unknown: ShellWord[]
}

/** Builtins and tools whose arguments are not paths. */
const NO_PATHS = new Set([
  'echo', 'printf', 'true', 'false', 'test', '[', '[[', ']]', 'sleep', 'date', 'expr', 'seq', 'yes', 'kill', 'killall', 'exit', 'return', 'let',
  'read', 'shift', 'wait', 'jobs', 'fg', 'bg', 'which', 'type', 'hash', 'history', 'alias', 'unalias', 'unset', 'trap', 'ulimit', 'umask',
  'whoami', 'id', 'uname', 'hostname', 'printenv', 'tput', 'clear', 'pwd', 'export', 'declare', 'typeset', 'local', 'readonly', 'set', 'shopt',
  'command', 'builtin', 'getopts', 'break', 'continue', 'eval', ':', 'ps', 'pgrep', 'pkill', 'nproc', 'uptime', 'free', 'env'
])

/** Tools that only read the paths they name. The value: whether they read directories recursively. */
const READERS: Readonly<Record<string, 'flat' | 'recursive' | 'flag'>> = {
  cat: 'flat', head: 'flat', tail: 'flat', less: 'flat', more: 'flat', bat: 'flat', nl: 'flat', wc: 'flat', file: 'flat', stat: 'flat',
  cmp: 'flat', diff: 'flag', md5sum: 'flat', sha1sum: 'flat', sha256sum: 'flat', sha512sum: 'flat', shasum: 'flat', cksum: 'flat',
  xxd: 'flat', hexdump: 'flat', od: 'flat', strings: 'flat', cut: 'flat', column: 'flat', jq: 'flat', yq: 'flat', comm: 'flat',
  join: 'flat', paste: 'flat', realpath: 'flat', readlink: 'flat', basename: 'flat', dirname: 'flat', cd: 'flat', pushd: 'flat',
  source: 'flat', '.': 'flat', ls: 'flag', grep: 'flag', egrep: 'flag', fgrep: 'flag', zgrep: 'flag',
  rg: 'recursive', ag: 'recursive', ack: 'recursive', tree: 'recursive', du: 'recursive', find: 'recursive', fd: 'recursive', wc_l: 'flat'
}

const RECURSIVE_FLAG = /^-(?:[A-Za-z]*[rRa][A-Za-z]*)$|^--(recursive|archive|dereference-recursive)$/

const options = (args: readonly ShellWord[]): ShellWord[] => args.filter((w) => w.value.startsWith('-') && w.value !== '-')
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
      else if (/^-[A-Za-z]$/.test(name) && value.startsWith(name) && value.length > 2 && !value.startsWith('--')) out.push({ ...args[i], value: value.slice(2) })
    }
  }
  return out
}
const recursiveBy = (args: readonly ShellWord[]): boolean => options(args).some((w) => RECURSIVE_FLAG.test(w.value))
const reads = (words: readonly ShellWord[], recursive: boolean) => words.map((word) => ({ word, recursive }))
const empty = (): ArgPaths => ({ writes: [], reads: [], unknown: [] })
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
      if (file !== '') out.push({ ...word, value: dir ? `${dir.value}/${file}` : file, expands: word.expands || Boolean(dir?.expands) })
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
      const files = operands(args, ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group'])
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
      out.writes.push(...operands(args, ['-s', '--size', '-m', '--mode', '-r', '--reference', '-d', '--date', '-t', '-i', '-o', '-p', '-D', '-F', '-B']))
      out.writes.push(...optionValue(args, name === 'patch' ? ['-o', '--output'] : []))
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
        if (word.value.startsWith('if=')) out.reads.push({ word: { ...word, value: word.value.slice(3) }, recursive: false })
      }
      return out
    case 'sed': {
      const inPlace = options(args).some((w) => /^-[A-Za-z]*i/.test(w.value) || w.value.startsWith('--in-place'))
      const scripted = args.some((w) => /^-[A-Za-z]*[ef]$/.test(w.value) || w.value.startsWith('--expression') || w.value.startsWith('--file'))
      const files = operands(args, ['-e', '--expression', '-f', '--file', '-l', '--line-length']).slice(scripted ? 0 : 1)
      if (inPlace) out.writes.push(...files)
      else out.reads.push(...reads(files, false))
      return out
    }
    case 'rsync':
    case 'scp': {
      const files = operands(args, ['-e', '--rsh', '-i', '-o', '-P', '-F', '-S', '-c', '-l', '--exclude', '--include', '--filter', '-f', '--rsync-path', '--port', '--password-file', '--log-file'])
      const local = (w: ShellWord) => !/^[^/]*:/.test(w.value)
      out.writes.push(...files.slice(-1).filter(local))
      out.reads.push(...reads(files.slice(0, -1).filter(local), name === 'scp' ? recursiveBy(args) : true))
      return out
    }
    case 'tar':
    case 'bsdtar': {
      const first = args[0]?.value ?? ''
      const bundle = first && !first.startsWith('-') ? `-${first}` : ''
      const flags = [bundle, ...options(args).map((w) => w.value)].join(' ')
      const extract = /(^|\s)-[A-Za-z]*x|--extract|--get/.test(flags)
      const create = /(^|\s)-[A-Za-z]*[cru]|--create|--append|--update/.test(flags)
      const archive = optionValue(args, ['-f', '--file'])
      const bundledFile = bundle.includes('f') ? args.slice(1).find((w) => !w.value.startsWith('-')) : undefined
      const archives = bundledFile ? [bundledFile, ...archive] : archive
      const dir = optionValue(args, ['-C', '--directory'])
      const rest = operands(args.slice(bundle ? 1 : 0), ['-f', '--file', '-C', '--directory', '-T', '--files-from', '-X', '--exclude-from', '-I']).filter((w) => !archives.includes(w))
      if (extract) {
        // Without -C the archive's entries land in the current directory, `.git/hooks/…` included.
        out.writes.push(...(dir.length > 0 ? dir : [here(argv0)]))
        out.reads.push(...reads(archives, false))
      } else if (create) {
        out.writes.push(...archives)
        out.reads.push(...reads(rest, true), ...reads(dir, true))
      } else out.reads.push(...reads([...archives, ...rest], false))
      return out
    }
    case 'zip': {
      const files = operands(args, ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '-TT'])
      out.writes.push(...files.slice(0, 1))
      out.reads.push(...reads(files.slice(1), recursiveBy(args)))
      return out
    }
    case 'unzip': {
      const dir = optionValue(args, ['-d'])
      out.writes.push(...(dir.length > 0 ? dir : [here(argv0)]))
      out.reads.push(...reads(operands(args, ['-d', '-x', '-P']).slice(0, 1), false))
      return out
    }
    case 'curl': {
      out.writes.push(...optionValue(args, ['-o', '--output', '--output-dir', '-c', '--cookie-jar', '-D', '--dump-header', '--trace', '--trace-ascii', '--stderr']))
      // `-O` saves each download under the URL's own file name, `.bashrc` included.
      const remoteName = args.some((w) => /^--remote-name(-all)?$/.test(w.value) || /^-[A-Za-z]*O[A-Za-z]*$/.test(w.value))
      if (remoteName) out.writes.push(...urlFileNames(args, optionValue(args, ['--output-dir'])[0]))
      out.reads.push(...reads(optionValue(args, ['-K', '--config', '-T', '--upload-file', '-b', '--cookie']), false))
      return out
    }
    case 'wget': {
      const document = optionValue(args, ['-O', '--output-document'])
      out.writes.push(...document, ...optionValue(args, ['-P', '--directory-prefix', '-o', '--output-file', '-a', '--append-output']))
      // Without -O each download is saved under the URL's own file name.
      if (document.length === 0) out.writes.push(...urlFileNames(args, optionValue(args, ['-P', '--directory-prefix'])[0]))
      return out
    }
    case 'sort':
      out.writes.push(...optionValue(args, ['-o', '--output']))
      out.reads.push(...reads(operands(args, ['-o', '--output', '-k', '-t', '-S', '-T', '--key', '--field-separator']), false))
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
  while (i < args.length && args[i].value.startsWith('-')) i += ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'].includes(args[i].value) ? 2 : 1
  const sub = args[i]?.value
  const rest = args.slice(i + 1)
  const at = (value: string): ShellWord => ({ ...(args[i] ?? args[0]), value })
  if (sub === 'config') {
    const reading = rest.some((w) => /^--(get|get-all|get-regexp|get-urlmatch|list|show-origin|show-scope|name-only)$|^-l$/.test(w.value)) || rest.some((w) => w.value === 'get' || w.value === 'list')
    const values = operands(rest, ['-f', '--file', '--blob', '--type', '--default', '--comment'])
    const writing = !reading && (values.length >= 2 || rest.some((w) => /^--(add|unset|unset-all|replace-all|rename-section|remove-section|edit)$|^-e$/.test(w.value)) || values[0]?.value === 'set' || values[0]?.value === 'unset')
    if (writing) {
      const file = optionValue(rest, ['-f', '--file'])
      if (file.length > 0) out.writes.push(...file)
      else if (rest.some((w) => w.value === '--global')) out.writes.push(at('~/.gitconfig'))
      else if (rest.some((w) => w.value === '--system')) out.writes.push(at('/etc/gitconfig'))
      else out.writes.push(at('.git/config'))
    }
    return out
  }
  if (sub === 'clone') out.writes.push(...operands(rest, ['-b', '--branch', '-o', '--origin', '--depth', '-c', '--config', '--reference', '--separate-git-dir', '-u', '--upload-pack', '--template', '-j', '--jobs', '--filter']).slice(1, 2))
  if (sub === 'init') out.writes.push(...operands(rest, ['--template', '--separate-git-dir', '-b', '--initial-branch', '--object-format']).slice(0, 1))
  // `git diff --output=f`, `git log -o f`… write the file they name.
  out.writes.push(...optionValue(rest, ['--output', '-o']).filter(() => sub !== 'commit' && sub !== 'clone'))
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
  const roots = starts.length > 0 ? starts : [{ ...(args[0] ?? { raw: '.', start: 0, end: 0, quoted: false, expands: false, glob: false }), value: '.' }]
  if (args.some((w) => w.value === '-delete')) out.writes.push(...roots)
  out.writes.push(...optionValue(args, ['-fprint', '-fprint0', '-fprintf', '-fls']))
  out.reads.push(...reads(roots, true))
  return out
}

/** The paths a command's arguments name, by what the command does with them. */
export function argPaths(argv: readonly ShellWord[]): ArgPaths {
  if (argv.length === 0) return empty()
  const name = commandName(argv[0].value)
  const args = argv.slice(1)
  if (NO_PATHS.has(name)) return empty()
  if (name === 'find') return findPaths(args)
  const writer = writerPaths(argv[0], name, args)
  if (writer) return writer
  const kind = READERS[name]
  if (kind) {
    const files = operands(args, ['-e', '-f', '-m', '-A', '-B', '-C', '--max-count', '-g', '--glob', '-t', '--type', '-n', '-c', '--exclude', '--include', '-I', '-L', '-P'])
    const recursive = kind === 'recursive' || (kind === 'flag' && recursiveBy(args))
    // `grep -r KEY` and `rg KEY` search the current directory; their first operand is the pattern.
    const searches = name === 'grep' || name === 'egrep' || name === 'fgrep' || name === 'zgrep' || name === 'rg' || name === 'ag' || name === 'ack'
    const patternGiven = args.some((w) => /^(-e|-f|--regexp|--file)(=|$)/.test(w.value))
    const paths = searches && !patternGiven ? files.slice(1) : files
    const dot = { ...(argv[0] as ShellWord), value: '.' }
    return { writes: [], reads: reads(paths.length === 0 && recursive ? [dot] : paths, recursive), unknown: [] }
  }
  const out = empty()
  for (const word of args) {
    if (!word.value.startsWith('-')) out.unknown.push(word)
    else if (word.value.includes('=')) out.unknown.push({ ...word, value: word.value.slice(word.value.indexOf('=') + 1) })
  }
  return out
}
