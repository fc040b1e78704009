import type { ModusClient } from '../../../shared/contract'
import { createEventFanout } from '../../../shared/contract/client-events'
import type { Result } from '../../../shared/result'

type Bridge = NonNullable<Window['modus']>

/** The contract over Electron IPC, through the preload's `window.modus` bridge. */
export function createElectronClient(bridge: Bridge): ModusClient {
  const fanout = createEventFanout((problem) => console.error(`Modus: ${problem}`))
  bridge.onEvent(fanout.deliver)
  return {
    request: (channel, input) => bridge.invoke(channel, input) as Promise<Result<never>>,
    subscribe: fanout.subscribe
  }
}
