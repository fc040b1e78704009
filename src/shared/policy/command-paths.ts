import type { Decision } from './commands'
import { isProtectedPath, lexicalPathFacts, normalizePosix, PROTECTED_NAMES, type PathFacts } from './paths'
import { basename, type CommandAnalysis, type PathUse } from './shell/analyze'
import { assignmentValues } from './shell/arg-paths'
import type { ShellWord } from './shell/types'
import { lookupTable } from '../lookup-table'

/** What the policy knows about the workspace when it checks the paths a command line names. */
export interface CommandPathContext {
  workspaceRoot: string
  cwd?: string
  /** Realpath-based facts from the core; lexical when absent. */
  resolvePath?: (path: string) => PathFacts
  isIgnored?: (relPath: string, isDirectory?: boolean) => boolean
  /** Whether a directory holds entries the ignore file excludes (for recursive reads and globs). */
  ignoredWithin?: (relDir: string) => boolean
  /** The mode auto-approves reads outside the workspace. */
  readOutsideWorkspace?: boolean
  /** The mode's own limit on which files it edits (a file regex), applied to written paths. */
  writeRestriction?: (relPath: string) => PathVerdict | undefined
}

export interface PathVerdict {
  decision: Decision
  rule: string
  reason: string
}

const DIRECTORY_CHANGERS = new Set(['cd', 'pushd'])
const READABLE_DEVICES = new Set([
  '/dev/null',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/tty',
  '-'
])
/** Where a write goes nowhere or to the command's own output (`curl -o -`, `sort -o /dev/stdout`). */
const WRITABLE_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '-'])
/** The protected names (the policy's one table): a glob that can match one may write it. */
const PROTECTED_SPELLINGS = PROTECTED_NAMES.map((entry) => entry.name)

const isRelative = (path: string): boolean =>
  !path.startsWith('/') && !path.startsWith('~') && !/^[A-Za-z]:[\\/]/.test(path)
const joinPath = (base: string | undefined, path: string): string =>
  base && isRelative(path) ? `${base}/${path}` : path
const verdict = (decision: Decision, rule: string, reason: string): PathVerdict => ({ decision, rule, reason })

const CD_OPTION = /^-[LPe@]+$/
const CHDIR_WRAPPERS: Readonly<Record<string, readonly string[]>> = lookupTable({
  env: ['-C', '--chdir'],
  sudo: ['-D', '--chdir'],
  run0: ['-D', '--chdir']
})

/**
 * The directories a part changes to: `cd dir`, `cd` (home), `env -C dir …`, `sudo -D dir …`.
 * `null` when only known at run time (`cd -`, `cd "$D"`, `pushd +1`).
 */
function directoryChanges(part: CommandAnalysis['parts'][number]): Array<string | null> {
  const out: Array<string | null> = []
  for (const level of part.levels.slice(0, -1)) {
    const options = CHDIR_WRAPPERS[basename(level[0])]
    if (!options) continue
    for (let i = 1; i < level.length; i++) {
      const word = level[i]
      const option = options.find(
        (o) => word === o || word.startsWith(`${o}=`) || (!o.startsWith('--') && word.startsWith(o) && word.length > 2)
      )
      if (!option) continue
      const value =
        word === option ? level[i + 1] : word.startsWith(`${option}=`) ? word.slice(option.length + 1) : word.slice(2)
      out.push(value === undefined || value.includes('$') ? null : value)
    }
  }
  if (!DIRECTORY_CHANGERS.has(basename(part.program))) return out
  const operands = part.argv
    .slice(1)
    .filter((word, i, rest) => !(CD_OPTION.test(word) && !rest.slice(0, i).includes('--')) && word !== '--')
  const target = operands[0] === undefined ? undefined : pathSpelled(operands[0])
  if (target === undefined) out.push('~')
  else if (target === '-' || /^[+-]\d+$/.test(target) || target.includes('$') || target.includes('`')) out.push(null)
  else out.push(target)
  return out
}

/** `$HOME/x` and `${HOME}/x` are `~/x`. */
const homeSpelled = (path: string): string => path.replace(/^\$(?:HOME|\{HOME\})(?=\/|$)/, '~')

/**
 * A path as bash resolves its start: `$HOME`, `${HOME}` are `~`; `$PWD`, `${PWD}` and `~+` are the
 * current directory (so `.`, joined to wherever the command runs); `$OLDPWD` and `~-` are a
 * directory known only at run time (`~-`, which reads as outside). Go's package pattern `./...`
 * names the directory before it.
 */
export function pathSpelled(path: string): string {
  // Only a path that starts with `$` or `~`, or ends in `...`, is spelled differently.
  if (path[0] !== '$' && path[0] !== '~' && !path.endsWith('...')) return path
  const spelled = homeSpelled(path)
    .replace(/^(?:\$(?:PWD|\{PWD\})|~\+)(?=\/|$)/, '.')
    .replace(/^\$(?:OLDPWD|\{OLDPWD\})(?=\/|$)/, '~-')
  if (spelled === '...') return '.'
  return spelled.endsWith('/...') ? spelled.slice(0, -4) || '/' : spelled
}

/** `file:///x/y` is the file `/x/y`: a URL that reads a local file names its path. */
function fileUrlPath(path: string): string {
  if (path[0] !== 'f' && path[0] !== 'F') return path
  const match = /^file:\/\/[^/]*(\/.*)?$/i.exec(path)
  if (!match) return path
  try {
    return decodeURIComponent(match[1] ?? '/')
  } catch {
    return match[1] ?? '/'
  }
}

/**
 * A word a tool may read a file from inside of: `@file` (curl -d @f, httpie field@f) and `k=@f`
 * (curl -F). The path after the `@` is checked as the word is.
 */
function embeddedPaths(use: PathUse): PathUse[] {
  const at = /^@(.+)$|=@(.+)$|@([/~.$].*)$/.exec(use.path)
  return at ? [use, { ...use, path: at[1] ?? at[2] ?? at[3] }] : [use]
}

/** A word whose value still holds an expansion once the known ones are resolved: it may name any path. */
const unknownAtRunTime = (use: PathUse, spelled: string): boolean =>
  use.expands && /[$`]/.test(spelled) && !/^[<>]\(.*\)$/s.test(spelled)
const isUrl = (path: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(path)

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

/**
 * The values of the variables a line sets for its commands (`X=v cmd`, `env X=v cmd`, `sudo X=v
 * cmd`): a tool may read any of them as a path, so each is checked as a value.
 */
function assignedValues(analysis: CommandAnalysis): PathUse[] {
  const out: PathUse[] = []
  const seen = new Set<CommandAnalysis['parts'][number]['command']>()
  const use = (word: ShellWord, via: string) =>
    assignmentValues(word).forEach((piece) => out.push({ path: piece.value, expands: piece.expands, via, value: true }))
  for (const part of analysis.parts) {
    if (!seen.has(part.command)) {
      seen.add(part.command)
      for (const word of part.command.assignments) use(word, 'assignment')
    }
    for (const level of part.levels.slice(0, -1))
      for (const value of level.slice(1).filter((word) => ENV_ASSIGNMENT.test(word)))
        use(
          { raw: value, value, start: 0, end: 0, quoted: false, expands: /[$`]/.test(value), glob: false },
          basename(level[0])
        )
  }
  return out
}

/** A glob's directory part before the first pattern character, and the pattern after it. */
function splitGlob(path: string): { dir: string; pattern: string } {
  const first = path.search(/[*?[]/)
  if (first < 0) return { dir: path, pattern: '' }
  const slash = path.lastIndexOf('/', first)
  return { dir: slash < 0 ? '.' : path.slice(0, slash) || '/', pattern: path.slice(slash + 1) }
}

function globSegmentRegex(segment: string): RegExp {
  let source = ''
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]
    if (c === '*') source += '[^/]*'
    else if (c === '?') source += '[^/]'
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2)
      if (close < 0) source += '\\['
      else {
        source += `[${segment
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`
        i = close
      }
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&')
  }
  // Without dotglob a leading dot must be written: `*` does not match `.git`, `.*` does.
  return new RegExp(`^${segment.startsWith('.') ? '' : '(?!\\.)'}${source}$`, 'i')
}

const globMayMatchProtected = (pattern: string): boolean => {
  const first = pattern.split('/')[0]
  const regex = globSegmentRegex(first)
  return PROTECTED_SPELLINGS.some((name) => regex.test(name))
}

/**
 * The paths of a command line against the workspace: ignored → deny; writes (redirections and the
 * commands' own write arguments) into protected paths, outside the workspace or to a target known
 * only at run time → ask; reads outside → ask unless the mode reads outside; recursive reads of a
 * directory holding ignored entries → ask; a tool the tables do not know that names a protected or
 * outside path → ask. Undefined when the paths raise nothing.
 */
export function decideCommandPaths(analysis: CommandAnalysis, ctx: CommandPathContext): PathVerdict | undefined {
  const cdTargets = analysis.parts.flatMap(directoryChanges)
  const known = cdTargets.filter((dir): dir is string => dir !== null).map(pathSpelled)
  // Each cd from the start and all of them in a row: the command reads from any of these places.
  const chained = known.reduce<Array<string | undefined>>(
    (out, dir) => [...out, joinPath(out[out.length - 1], dir)],
    [ctx.cwd]
  )
  const bases = [...new Set([ctx.cwd, ...known.map((dir) => joinPath(ctx.cwd, dir)), ...chained])]
  const unknownBase = cdTargets.includes(null)
  const facts = (path: string): PathFacts =>
    ctx.resolvePath ? ctx.resolvePath(path) : lexicalPathFacts(path, ctx.workspaceRoot)
  const ignored = (rel: string): boolean =>
    Boolean(ctx.isIgnored && rel !== '.' && (ctx.isIgnored(rel) || ctx.isIgnored(rel, true)))
  let ask: PathVerdict | undefined

  const check = (use: PathUse, role: 'write' | 'read' | 'named'): PathVerdict | undefined => {
    const path = pathSpelled(fileUrlPath(use.path))
    if (path === '' || isUrl(path) || (role === 'write' ? WRITABLE_DEVICES : READABLE_DEVICES).has(path))
      return undefined
    if (unknownAtRunTime(use, path)) {
      if (role === 'write')
        ask ??= verdict('ask', 'write-target-unknown', `The write target '${use.path}' is only known at run time`)
      else
        ask ??= verdict(
          'ask',
          'path-unknown',
          `'${use.path}' names a path known only at run time, so it may lead anywhere`
        )
      return undefined
    }
    if (unknownBase && isRelative(path)) {
      ask ??= verdict(
        'ask',
        'cwd-unknown',
        `The command changes to a directory known only at run time, so '${use.path}' may be anywhere`
      )
      if (role !== 'write') return undefined
    }
    const { dir, pattern } = use.glob ? splitGlob(path) : { dir: path, pattern: '' }
    for (const base of role === 'write' ? [ctx.cwd] : bases) {
      const full = joinPath(base, dir)
      const where = facts(full)
      const rel = where.relPath === undefined ? undefined : normalizePosix(where.relPath) || '.'
      if (rel !== undefined && ignored(rel)) {
        // A value may not be a path at all (`grep -e secrets`): it asks where a named file is refused.
        if (!use.value)
          return verdict('deny', 'ignored-path', `The command names '${use.path}', which the ignore file excludes`)
        ask ??= verdict('ask', 'ignored-path', `The command names '${use.path}', which the ignore file excludes`)
      }
      if (rel !== undefined && (use.recursive || pattern) && ctx.ignoredWithin?.(rel))
        ask ??= verdict(
          'ask',
          'ignored-within',
          `'${use.path}' ${pattern ? 'is a pattern over' : 'is read recursively from'} a folder holding files the ignore file excludes`
        )
      if (role === 'write') {
        if (cdTargets.length > 0 && isRelative(path))
          ask ??= verdict(
            'ask',
            'write-target-unknown',
            `After a cd the write target '${use.path}' is not where it looks`
          )
        else if (where.outsideWorkspace)
          ask ??= verdict(
            'ask',
            'outside-workspace-write',
            `'${use.path}' is outside the workspace; writes there always ask`
          )
        else if (rel === '.' || isProtectedPath(rel ?? path) || (pattern && globMayMatchProtected(pattern)))
          ask ??= verdict(
            'ask',
            'protected-path',
            `'${use.path}' is or may hold a protected file; writing it always asks`
          )
        else if (rel !== undefined) {
          const restricted = ctx.writeRestriction?.(rel)
          if (restricted) ask ??= restricted
          else if (use.option)
            ask ??= verdict(
              'ask',
              'option-write',
              `${use.via} writes '${use.path}' through an option; inside the workspace that asks like a > redirection, since an edit reaches the disk only through the review`
            )
        }
      } else if (where.outsideWorkspace) {
        if (role === 'named')
          ask ??= verdict('ask', 'outside-workspace', `The command names '${use.path}', outside the workspace`)
        else if (!ctx.readOutsideWorkspace)
          ask ??= verdict('ask', 'outside-workspace', `The command reads '${use.path}', outside the workspace`)
      } else if (role === 'named' && rel !== undefined && rel !== '.' && isProtectedPath(rel))
        ask ??= verdict('ask', 'protected-path', `The command names the protected path '${use.path}'`)
    }
    return undefined
  }

  // xargs hands its command words read at run time: they may name any path.
  const fed = analysis.parts.find((part) => part.wrappers.includes('xargs'))
  if (fed)
    ask ??= verdict(
      'ask',
      'path-unknown',
      `xargs gives '${fed.argv.join(' ')}' arguments read at run time, which may name any path`
    )
  // In this order: writes, reads, the arguments' reads, then named paths and assigned values.
  const checkAll = (uses: readonly PathUse[], role: 'write' | 'read' | 'named'): PathVerdict | undefined => {
    for (const use of uses) {
      const denied = check(use, role)
      if (denied) return denied
    }
    return undefined
  }
  return (
    checkAll(analysis.writes, 'write') ??
    checkAll(analysis.reads, 'read') ??
    checkAll(analysis.argReads, 'read') ??
    checkAll(analysis.named.flatMap(embeddedPaths), 'named') ??
    checkAll(assignedValues(analysis).flatMap(embeddedPaths), 'named') ??
    ask
  )
}
