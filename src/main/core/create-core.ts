import type { Handlers } from '../../shared/contract'
import { dispatch } from '../../shared/contract/dispatch'
import type { Result } from '../../shared/result'
import { createEventBus, type EventBus } from './event-bus'
import { createRecentFolders } from './workspace-session/recent-folders'
import { createWorkspaceHandlers, createWorkspaceSession } from './workspace-session/workspace-handlers'

export interface CoreOptions {
  dataDir: string
  transport: 'electron' | 'web'
  version: string
  /** Native folder dialog, supplied by the Electron adapter. */
  pickFolder?: () => Promise<string | null>
}

export interface Core {
  handlers: Handlers
  bus: EventBus
  /** Parses and runs one untrusted request; never throws. */
  handle(channel: unknown, payload: unknown): Promise<Result<unknown>>
  dispose(): Promise<void>
}

/** The composition root of the core: every service is built here, once, from factories. */
export function createCore(options: CoreOptions): Core {
  const bus = createEventBus()
  const recent = createRecentFolders(options.dataDir)
  const session = createWorkspaceSession({ recent, bus })

  const handlers: Handlers = {
    'app:info': async () => ({
      version: options.version,
      transport: options.transport,
      platform: process.platform,
      dataDir: options.dataDir
    }),
    ...createWorkspaceHandlers({ session, recent, pickFolder: options.pickFolder }),
    ...pendingHandlers()
  }

  return {
    handlers,
    bus,
    handle: (channel, payload) => dispatch(handlers, channel, payload),
    async dispose() {}
  }
}

// TEMPORARY until the settings/task services land (agent-loop helper); removed when wired.
function pendingHandlers(): Pick<
  Handlers,
  | 'settings:get'
  | 'settings:saveProvider'
  | 'settings:removeProvider'
  | 'settings:setActiveProvider'
  | 'task:start'
  | 'task:send'
  | 'task:cancel'
  | 'task:list'
  | 'task:events'
> {
  const unavailable = async (): Promise<never> => {
    throw new Error('not wired yet')
  }
  return {
    'settings:get': unavailable,
    'settings:saveProvider': unavailable,
    'settings:removeProvider': unavailable,
    'settings:setActiveProvider': unavailable,
    'task:start': unavailable,
    'task:send': unavailable,
    'task:cancel': unavailable,
    'task:list': unavailable,
    'task:events': unavailable
  }
}
