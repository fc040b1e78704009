import { promises as fs } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path'
import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { TrustedFolders, WorkspaceInfo } from '../../../shared/contract/workspace'
import type { EventBus } from '../event-bus'
import type { RecentFolders } from './recent-folders'
import { hashGrants, type TrustStore } from './trust-store'

type WorkspaceChannels =
  | 'workspace:open'
  | 'workspace:pick'
  | 'workspace:current'
  | 'workspace:recent'
  | 'workspace:complete'
  | 'workspace:trust'
  | 'workspace:trustedFolders'
  | 'workspace:revokeTrust'

/** Holds which folder is open; other services read it through `current()`. */
export interface WorkspaceSession {
  current(): WorkspaceInfo | null
  open(path: string): Promise<WorkspaceInfo>
  /** `grantsHash` names the grants the user was shown; a different one now refuses the answer. */
  setTrust(trusted: boolean, grantsHash?: string): Promise<WorkspaceInfo>
  /** Describes the open folder again (its modes changed); tells the windows when anything differs. */
  refresh(): Promise<void>
  /** Every folder the user answered for. */
  trustedFolders(): TrustedFolders
  /** Forgets a folder's answer and the user's own mode saves there; the open folder asks again. */
  revokeTrust(root: string): Promise<TrustedFolders>
}

export function createWorkspaceSession(deps: {
  recent: RecentFolders
  bus: EventBus
  trust: TrustStore
  /** What the project's files grant (read from its modes files): one line per mode, and item by item. */
  describeGrants: (root: string) => Promise<{ lines: string[]; items: string[] }>
  /** Drops the record of the modes the user saved in a folder (revoking trust takes them back too). */
  forgetOwnSaves?: (root: string) => Promise<void>
}): WorkspaceSession {
  let current: WorkspaceInfo | null = null
  const describe = async (root: string): Promise<WorkspaceInfo> => {
    const grants = await deps.describeGrants(root).catch(() => ({ lines: [], items: [] }))
    const newGrants = deps.trust.unseenGrants(root, grants.items)
    return {
      root,
      name: basename(root) || root,
      trusted: deps.trust.isTrusted(root, grants.items),
      // New grants on a trusted folder ask again.
      trustAnswered: deps.trust.hasAnswered(root) && newGrants.length === 0,
      projectGrants: grants.lines,
      newGrants,
      grantsHash: hashGrants(grants.items),
      trustProblems: deps.trust.problems()
    }
  }
  return {
    current: () => current,
    async open(path) {
      const root = await realDirectory(path)
      current = await describe(root)
      await deps.recent.remember(root)
      deps.bus.emit('workspace:opened', current)
      return current
    },
    async refresh() {
      if (!current) return
      const next = await describe(current.root)
      if (current && next.root === current.root && JSON.stringify(next) !== JSON.stringify(current)) {
        current = next
        deps.bus.emit('workspace:opened', current)
      }
    },
    trustedFolders: () => ({
      folders: deps.trust.list().map(({ root, trusted, at, grants }) => ({ root, trusted, at, grants })),
      problems: deps.trust.problems()
    }),
    async revokeTrust(root) {
      await deps.trust.forget(root)
      await deps.forgetOwnSaves?.(root)
      if (current?.root === root) {
        current = await describe(root)
        deps.bus.emit('workspace:opened', current)
      }
      return this.trustedFolders()
    },
    async setTrust(trusted, grantsHash) {
      if (!current) throw new UserFacingError('no_workspace', 'Open a workspace first.')
      const grants = await deps.describeGrants(current.root)
      if (grantsHash !== undefined && grantsHash !== hashGrants(grants.items)) {
        current = await describe(current.root)
        deps.bus.emit('workspace:opened', current)
        throw new UserFacingError(
          'grants_changed',
          "The project's permissions changed while you were deciding: review them again."
        )
      }
      await deps.trust.set(current.root, trusted, grants.items)
      current = await describe(current.root)
      deps.bus.emit('workspace:opened', current)
      return current
    }
  }
}

async function realDirectory(path: string): Promise<string> {
  if (path.includes('\0')) throw new UserFacingError('invalid_path', 'The folder path contains a NUL character.')
  const absolute = resolve(expandHome(path.trim()))
  const real = await fs.realpath(absolute).catch(() => {
    throw new UserFacingError('not_found', `No such folder: ${absolute}`)
  })
  const stat = await fs.stat(real)
  if (!stat.isDirectory()) throw new UserFacingError('not_a_directory', `Not a folder: ${real}`)
  return real
}

const MAX_COMPLETIONS = 50

/**
 * The folders a typed absolute path may continue into: the entries of its parent that start with
 * its last segment (hidden ones only when the segment starts with a dot). Nothing for relative
 * paths or unreadable folders; a completion is only a suggestion, `open` still checks the result.
 */
export async function completeFolderPath(typed: string): Promise<string[]> {
  if (typed.includes('\0')) return []
  const expanded = expandHome(typed.trim())
  if (!isAbsolute(expanded)) return []
  const endsInSeparator = expanded.endsWith('/') || expanded.endsWith(sep)
  const parent = endsInSeparator ? expanded : dirname(expanded)
  const prefix = endsInSeparator ? '' : basename(expanded)
  const entries = await fs.readdir(parent, { withFileTypes: true }).catch(() => [])
  const folders: string[] = []
  for (const entry of entries) {
    if (!entry.name.startsWith(prefix) || (entry.name.startsWith('.') && !prefix.startsWith('.'))) continue
    const full = join(parent, entry.name)
    const isFolder =
      entry.isDirectory() ||
      (entry.isSymbolicLink() &&
        (await fs.stat(full).then(
          (s) => s.isDirectory(),
          () => false
        )))
    if (isFolder) folders.push(full)
  }
  return folders.sort((a, b) => a.localeCompare(b)).slice(0, MAX_COMPLETIONS)
}

const expandHome = (path: string): string =>
  path === '~' || path.startsWith('~/') ? (process.env.HOME ?? '') + path.slice(1) : path

export function createWorkspaceHandlers(deps: {
  session: WorkspaceSession
  recent: RecentFolders
  /** Native folder dialog (Electron); absent on the web host. */
  pickFolder?: () => Promise<string | null>
}): Pick<Handlers, WorkspaceChannels> {
  return {
    'workspace:open': ({ path }) => deps.session.open(path),
    'workspace:pick': async () => {
      if (!deps.pickFolder) {
        throw new UserFacingError('unsupported', 'No native folder dialog here: type the folder path instead.')
      }
      const chosen = await deps.pickFolder()
      return chosen ? deps.session.open(chosen) : null
    },
    'workspace:current': async () => {
      await deps.session.refresh() // the project's files may have changed since it was opened
      return deps.session.current()
    },
    'workspace:recent': () => deps.recent.list(),
    'workspace:complete': async ({ path }) => ({ folders: await completeFolderPath(path) }),
    'workspace:trust': ({ trusted, grantsHash }) => deps.session.setTrust(trusted, grantsHash),
    'workspace:trustedFolders': async () => deps.session.trustedFolders(),
    'workspace:revokeTrust': ({ root }) => deps.session.revokeTrust(root)
  }
}
