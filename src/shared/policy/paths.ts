/** Pure POSIX path helpers; the core supplies realpath-based facts where symlinks matter. */
export function normalizePosix(path: string): string {
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

export interface PathFacts {
  /** Workspace-relative POSIX path; undefined when the path is outside the workspace. */
  relPath?: string
  outsideWorkspace: boolean
}

/** Lexical containment: `..` escapes, absolute paths elsewhere and `~` are outside. */
export function lexicalPathFacts(path: string, workspaceRoot: string): PathFacts {
  if (path === '~' || path.startsWith('~/') || /^~[A-Za-z0-9_-]/.test(path)) return { outsideWorkspace: true }
  const root = normalizePosix(workspaceRoot)
  const full = path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) ? normalizePosix(path) : normalizePosix(`${root}/${path}`)
  if (full === root) return { relPath: '.', outsideWorkspace: false }
  if (full.startsWith(root === '/' ? '/' : `${root}/`)) return { relPath: full.slice(root === '/' ? 1 : root.length + 1), outsideWorkspace: false }
  return { outsideWorkspace: true }
}

const PROTECTED_DIRS_ANY_DEPTH = new Set(['.git', '.modus', '.vscode'])
const PROTECTED_FILES_ANY_DEPTH = new Set(['.roomodes', '.modusignore', '.rooignore'])
const PROTECTED_ROOT_DIRS = new Set(['.modus', '.vscode', '.roo', '.idea'])
const PROTECTED_ROOT_FILES = new Set(['.roomodes', '.modusignore', '.rooignore', 'agents.md', 'agent.md', '.rooprotected'])
const SHELL_RC_FILES = new Set([
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zprofile', '.zshenv',
  '.zlogin', '.zlogout', '.cshrc', '.tcshrc', '.kshrc', '.inputrc', 'config.fish'
])

/**
 * Files that steer the agent, the repository or the shell: writing them always asks, whatever
 * the toggles. Case-insensitive, since macOS and Windows file systems are.
 */
export function isProtectedPath(relPath: string): boolean {
  const segments = normalizePosix(relPath).toLowerCase().split('/').filter((s) => s !== '')
  if (segments.length === 0) return false
  // Nested folders and submodules have their own repository, agent and editor config.
  if (segments.some((segment) => PROTECTED_DIRS_ANY_DEPTH.has(segment))) return true
  if (PROTECTED_FILES_ANY_DEPTH.has(segments[segments.length - 1])) return true
  const [first] = segments
  if (PROTECTED_ROOT_DIRS.has(first)) return true
  if (segments.length === 1 && (PROTECTED_ROOT_FILES.has(first) || /^\.(roo|cline)rules/.test(first))) return true
  if (first.endsWith('.code-workspace')) return true
  return SHELL_RC_FILES.has(segments[segments.length - 1])
}
