import type { ModusClient } from '../../../shared/contract'
import { createLazyEventFanout } from '../../../shared/contract/lazy-event-fanout'
import { loadEventSchemas, whenIdleAfterFirstPaint } from './event-schemas'
import type { Result } from '../../../shared/result'

type Bridge = NonNullable<Window['modus']>

/** The contract over Electron IPC, through the preload's `window.modus` bridge. */
export function createElectronClient(bridge: Bridge): ModusClient {
  const fanout = createLazyEventFanout(
    (problem) => console.error(`Modus: ${problem}`),
    loadEventSchemas,
    whenIdleAfterFirstPaint
  )
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
