import { promises as fs } from 'node:fs'
import { basename, resolve } from 'node:path'
import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { WorkspaceInfo } from '../../../shared/contract/workspace'
import type { EventBus } from '../event-bus'
import type { RecentFolders } from './recent-folders'
import type { TrustStore } from './trust-store'

type WorkspaceChannels = 'workspace:open' | 'workspace:pick' | 'workspace:current' | 'workspace:recent' | 'workspace:trust'

/** Holds which folder is open; other services read it through `current()`. */
export interface WorkspaceSession {
  current(): WorkspaceInfo | null
  open(path: string): Promise<WorkspaceInfo>
  setTrust(trusted: boolean): Promise<WorkspaceInfo>
}

export function createWorkspaceSession(deps: {
  recent: RecentFolders
  bus: EventBus
  trust: TrustStore
  /** What the project's files grant (read from its modes files), for the trust prompt. */
  describeGrants: (root: string) => Promise<string[]>
}): WorkspaceSession {
  let current: WorkspaceInfo | null = null
  const describe = async (root: string): Promise<WorkspaceInfo> => ({
    root,
    name: basename(root) || root,
    trusted: deps.trust.isTrusted(root),
    trustAnswered: deps.trust.hasAnswered(root),
    projectGrants: await deps.describeGrants(root).catch(() => [])
  })
  return {
    current: () => current,
    async open(path) {
      const root = await realDirectory(path)
      current = await describe(root)
      await deps.recent.remember(root)
      deps.bus.emit('workspace:opened', current)
      return current
    },
    async setTrust(trusted) {
      if (!current) throw new UserFacingError('no_workspace', 'Open a workspace first.')
      await deps.trust.set(current.root, trusted)
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
    'workspace:current': async () => deps.session.current(),
    'workspace:recent': () => deps.recent.list(),
    'workspace:trust': ({ trusted }) => deps.session.setTrust(trusted)
  }
}
