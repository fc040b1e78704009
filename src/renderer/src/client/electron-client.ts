import type { ModusClient } from '../../../shared/contract'
import { createLazyEventFanout } from '../../../shared/contract/lazy-event-fanout'
import { loadEventSchemas, nextTask } from './event-schemas'
import type { Result } from '../../../shared/result'

type Bridge = NonNullable<Window['modus']>

/**
 * The contract over Electron IPC, through the preload's `window.modus` bridge. `loadSchemasWhen` says
 * when to load the event schemas if no event needs them first.
 */
export function createElectronClient(bridge: Bridge, loadSchemasWhen?: (start: () => void) => void): ModusClient {
  const fanout = createLazyEventFanout((problem) => console.error(`Modus: ${problem}`), {
    load: loadEventSchemas,
    schedule: loadSchemasWhen,
    nextTask
  })
  bridge.onEvent(fanout.deliver)
  return {
    // An answer waits behind the events that arrived before it (see inOrder).
    request: (channel, input) =>
      (bridge.invoke(channel, input) as Promise<Result<never>>).then(
        (result) => new Promise<Result<never>>((resolve) => fanout.inOrder(() => resolve(result)))
      ),
    subscribe: fanout.subscribe
  }
}
