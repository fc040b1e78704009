import type { ModusClient } from '../../../shared/contract'
import type { Result } from '../../../shared/result'

type Bridge = NonNullable<Window['modus']>

/** The contract over Electron IPC, through the preload's `window.modus` bridge. */
export function createElectronClient(bridge: Bridge): ModusClient {
  return {
    request: (channel, input) => bridge.invoke(channel, input) as Promise<Result<never>>,
    subscribe: (listener) => bridge.onEvent((name, payload) => listener(name as never, payload))
  }
}
