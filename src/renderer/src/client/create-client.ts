import type { ModusClient } from '../../../shared/contract'
import { createElectronClient } from './electron-client'
import { createWebClient } from './web-client'
import { useConnectionStore } from './connection-store'
import { takePageToken } from './page-token'
import { webSocketUrl } from './early-connection'
import type { FirstScreen } from './first-screen'

/**
 * Picks the transport at start: the preload bridge inside Electron, a WebSocket in a browser. The
 * event schemas load when the browser is idle after the first screen (unless an event needs them).
 */
export function createClient(firstScreen: FirstScreen): ModusClient {
  if (window.modus) {
    useConnectionStore.getState().setState('open')
    return createElectronClient(window.modus, firstScreen.whenIdleAfter)
  }
  const early = window.modusEarly ?? undefined
  window.modusEarly = null // an early script that comes late stands down
  return createWebClient(
    webSocketUrl(),
    early ? early.token : takePageToken(),
    (state) => useConnectionStore.getState().setState(state),
    early,
    firstScreen.whenIdleAfter
  )
}
