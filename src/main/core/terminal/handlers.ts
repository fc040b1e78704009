import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { TerminalService } from './types'

type TerminalChannels =
  | 'terminal:list'
  | 'terminal:create'
  | 'terminal:write'
  | 'terminal:resize'
  | 'terminal:kill'
  | 'terminal:stopCommand'
  | 'terminal:keep'
  | 'terminal:output'

export interface TerminalHandlerDeps {
  service: TerminalService
  /** The open workspace's root, where user terminals start (null: none open → home dir). */
  workspaceRoot: () => string | null
}

const notFound = (error: unknown): never => {
  const message = error instanceof Error ? error.message : String(error)
  throw new UserFacingError(message.startsWith('No terminal') ? 'not_found' : 'failed', message)
}

/** The terminal domain's request handlers (the renderer's terminal panel). */
export function createTerminalHandlers(deps: TerminalHandlerDeps): Pick<Handlers, TerminalChannels> {
  const { service } = deps
  const guard = async <T>(work: () => T | Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      return notFound(error)
    }
  }
  return {
    'terminal:list': async () => service.list(),
    'terminal:create': (input) =>
      guard(() => service.createUserTerminal({ ...input, workspaceRoot: deps.workspaceRoot() })),
    'terminal:write': (input) =>
      guard(() => {
        service.write(input.terminalId, input.data)
        return { ok: true as const }
      }),
    'terminal:resize': (input) =>
      guard(() => {
        service.resize(input.terminalId, input.cols, input.rows)
        return { ok: true as const }
      }),
    'terminal:kill': (input) =>
      guard(async () => {
        await service.kill(input.terminalId)
        return { ok: true as const }
      }),
    'terminal:stopCommand': (input) =>
      guard(async () => {
        await service.stopCommand(input.terminalId)
        return { ok: true as const }
      }),
    'terminal:keep': (input) =>
      guard(() => {
        service.keep(input.terminalId, input.keep)
        return { ok: true as const }
      }),
    'terminal:output': (input) => guard(() => ({ data: service.scrollback(input.terminalId) }))
  }
}
