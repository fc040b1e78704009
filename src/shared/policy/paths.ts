/** Pure POSIX path helpers; the core supplies realpath-based facts where symlinks matter. */
export function normalizePosix(path: string): string {
  // Most paths are already normal (no `\\`, `//`, `.` or `..` segment, no trailing `/`): returned as they are.
  if (!NEEDS_NORMALISING.test(path)) return path
  const absolute = path.startsWith('/')
  const out: string[] = []
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop()
      else if (!absolute) out.push('..')
    } else out.push(segment)
  }
  return (absolute ? '/' : '') + out.join('/')
}

/** What normalizePosix would change: a backslash, an empty, `.` or `..` segment, a trailing slash (`/` alone stays). */
const NEEDS_NORMALISING = /\\|\/\/|(?:^|\/)\.\.?(?:\/|$)|[\s\S]\/$|^$/

/** The last workspace root normalised: every path of a line is checked against the same one. */
let lastRoot = { given: '', normal: '' }
const normalRoot = (root: string): string =>
  lastRoot.given === root && root !== ''
    ? lastRoot.normal
    : (lastRoot = { given: root, normal: normalizePosix(root) }).normal

export interface PathFacts {
  /** Workspace-relative POSIX path; undefined when the path is outside the workspace. */
  relPath?: string
  outsideWorkspace: boolean
}

/**
 * Lexical containment: `..` escapes, absolute paths elsewhere and `~` are outside. Any leading `~`
 * counts (`~/x`, `~user`, `~-`, `~+1`: the directory stack), since the shell may expand it.
 */
export function lexicalPathFacts(path: string, workspaceRoot: string): PathFacts {
  if (path.startsWith('~')) return { outsideWorkspace: true }
  const root = normalRoot(workspaceRoot)
  const full =
    path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) ? normalizePosix(path) : normalizePosix(`${root}/${path}`)
  if (full === root) return { relPath: '.', outsideWorkspace: false }
  if (full.startsWith(root === '/' ? '/' : `${root}/`))
    return { relPath: full.slice(root === '/' ? 1 : root.length + 1), outsideWorkspace: false }
  return { outsideWorkspace: true }
}

/**
 * Where a protected name protects: a directory or file at any depth, or only at the workspace root.
 * `sandbox`: how the OS sandbox keeps it read-only at the root — `always` mounts it even when absent
 * (so a command cannot create it), `present` only when it exists (bwrap would leave an empty
 * placeholder in the workspace for each absent one it mounts over).
 */
export interface ProtectedName {
  name: string
  where: 'any-depth' | 'root'
  kind: 'dir' | 'file'
  sandbox: 'always' | 'present'
}

const entry = (
  name: string,
  where: ProtectedName['where'],
  kind: ProtectedName['kind'],
  sandbox: ProtectedName['sandbox'] = 'present'
): ProtectedName => ({ name, where, kind, sandbox })

const SHELL_RC_NAMES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.cshrc',
  '.tcshrc',
  '.kshrc',
  '.inputrc',
  'config.fish'
]

/**
 * The one table of protected names: files that steer the agent, the repository or the shell. The
 * policy (`isProtectedPath`), the command-path checks (globs that may match one) and the sandbox
 * (its read-only mounts) all read it. Names are compared case-insensitively (macOS and Windows file
 * systems are); the spelling here is the usual one on disk.
 */
export const PROTECTED_NAMES: readonly ProtectedName[] = [
  entry('.git', 'any-depth', 'dir', 'always'),
  entry('.modus', 'any-depth', 'dir', 'always'),
  entry('.vscode', 'any-depth', 'dir'),
  entry('.roo', 'root', 'dir'),
  entry('.idea', 'root', 'dir'),
  entry('.roomodes', 'any-depth', 'file', 'always'),
  entry('.modusignore', 'any-depth', 'file'),
  entry('.rooignore', 'any-depth', 'file'),
  entry('.rooprotected', 'root', 'file'),
  entry('AGENTS.md', 'root', 'file'),
  entry('AGENT.md', 'root', 'file'),
  ...SHELL_RC_NAMES.map((name) => entry(name, 'any-depth', 'file'))
]

/** Name patterns protected at the root besides the table's names (`.roorules-code`, `x.code-workspace`). */
const PROTECTED_ROOT_PATTERN = /^\.(roo|cline)rules|\.code-workspace$/

const namesWhere = (test: (entry: ProtectedName) => boolean): ReadonlySet<string> =>
  new Set(PROTECTED_NAMES.filter(test).map((entry) => entry.name.toLowerCase()))

const PROTECTED_DIRS_ANY_DEPTH = namesWhere((e) => e.where === 'any-depth' && e.kind === 'dir')
const PROTECTED_ROOT_DIRS = namesWhere((e) => e.kind === 'dir')
const PROTECTED_ROOT_FILES = namesWhere((e) => e.kind === 'file')

/** The protected names the sandbox mounts read-only at the workspace root: always, or where present. */
export const SANDBOX_PROTECTED = {
  always: PROTECTED_NAMES.filter((e) => e.sandbox === 'always').map((e) => e.name),
  wherePresent: PROTECTED_NAMES.filter((e) => e.sandbox === 'present').map((e) => e.name)
} as const

const ANY_DEPTH_NAMES = namesWhere((e) => e.where === 'any-depth')

/**
 * Files that steer the agent, the repository or the shell: writing them always asks, whatever
 * the toggles. Case-insensitive, since macOS and Windows file systems are.
 */
export function isProtectedPath(relPath: string): boolean {
  const segments = segmentsOf(relPath)
  if (segments.length === 0) return false
  const name = segments[segments.length - 1]
  return (segments.length > 1 && directoryProtects(segments.slice(0, -1))) || nameProtects(name, segments.length === 1)
}

/**
 * `isProtectedPath` for the entries of one directory (workspace-relative), its own part decided
 * once: a listing tests tens of thousands of names.
 */
export function protectedEntriesOf(dirRel: string): (name: string) => boolean {
  const dir = segmentsOf(dirRel)
  const atRoot = dir.length === 0
  const inProtectedDir = !atRoot && directoryProtects(dir)
  return (name) => {
    // A name that is a path of its own ('..', 'a/b') is resolved in full.
    if (name === '.' || name === '..' || name.includes('/') || name.includes('\\'))
      return isProtectedPath(`${dirRel}/${name}`)
    return inProtectedDir || nameProtects(name.toLowerCase(), atRoot)
  }
}

/** Lower-case segments. A path with no '.', '..' or backslash segments (as a walk builds them) needs no normalising. */
function segmentsOf(path: string): string[] {
  const lower = path.toLowerCase()
  const clean = !lower.includes('\\') && !DOT_SEGMENT.test(lower)
  return (clean ? lower : normalizePosix(lower)).split('/').filter((s) => s !== '')
}

const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/

/** Everything inside is protected: a nested repository or agent/editor config folder on the way. */
function directoryProtects(dir: readonly string[]): boolean {
  return (
    dir.some((segment) => PROTECTED_DIRS_ANY_DEPTH.has(segment)) ||
    PROTECTED_ROOT_DIRS.has(dir[0]) ||
    dir[0].endsWith('.code-workspace')
  )
}

/** The entry's own (lower-case) name protects it, at the workspace root or at any depth. */
function nameProtects(name: string, atRoot: boolean): boolean {
  if (ANY_DEPTH_NAMES.has(name)) return true
  return (
    atRoot && (PROTECTED_ROOT_DIRS.has(name) || PROTECTED_ROOT_FILES.has(name) || PROTECTED_ROOT_PATTERN.test(name))
  )
}
