import { analyzeCommand, basename, type CommandAnalysis, type CommandPart } from './shell/analyze'

/**
 * Whether a command line cannot change files: every part is a known reader and nothing is
 * redirected into a file. Checkpoints skip the snapshots around such commands; anything unknown
 * counts as writing, so a doubt costs a snapshot, never a lost change.
 */
const READERS = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'pwd',
  'echo',
  'printf',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'tree',
  'stat',
  'file',
  'du',
  'df',
  'which',
  'whereis',
  'type',
  'env',
  'printenv',
  'date',
  'whoami',
  'id',
  'uname',
  'hostname',
  'ps',
  'less',
  'more',
  'diff',
  'cmp',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'true',
  'false',
  'test',
  '[',
  'sort',
  'uniq',
  'cut',
  'tr',
  'column',
  'jq',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'strings'
])
const GIT_READERS = new Set([
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'describe',
  'shortlog',
  'cat-file'
])
const FIND_WRITERS = new Set([
  '-delete',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls'
])
const VERSION_FLAGS = new Set(['--version', '-v', '-V', '--help', '-h'])

export function isReadOnlyCommand(line: string): boolean {
  return isReadOnlyAnalysis(analyzeCommand(line))
}

/** The same, for a line already analysed. */
export function isReadOnlyAnalysis(analysis: CommandAnalysis): boolean {
  if (analysis.error || analysis.writes.length > 0 || analysis.alwaysAsk.length > 0 || analysis.parts.length === 0)
    return false
  return analysis.parts.every(isReadingPart)
}

function isReadingPart(part: CommandPart): boolean {
  const program = basename(part.program)
  const args = part.argv.slice(1)
  if (part.wrappers.some((w) => w !== 'env' && w !== 'command' && w !== 'time')) return false
  if (args.length === 1 && VERSION_FLAGS.has(args[0])) return true
  if (program === 'git')
    return GIT_READERS.has(args.find((a) => !a.startsWith('-')) ?? '') && !args.includes('--output')
  if (program === 'find') return !args.some((a) => FIND_WRITERS.has(a))
  if (program === 'sort') return !args.some((a) => a === '-o' || a.startsWith('--output'))
  return READERS.has(program)
}
