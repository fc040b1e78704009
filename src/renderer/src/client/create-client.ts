import type { ModusClient } from '../../../shared/contract'
import { createElectronClient } from './electron-client'
import { createWebClient } from './web-client'
import { useConnectionStore } from './connection-store'
import { takePageToken } from './page-token'
import { webSocketUrl } from './early-connection'

/** Picks the transport at start: the preload bridge inside Electron, a WebSocket in a browser. */
export function createClient(): ModusClient {
  if (window.modus) {
    useConnectionStore.getState().setState('open')
    return createElectronClient(window.modus)
  }
  const early = window.modusEarly ?? undefined
  window.modusEarly = null // an early script that comes late stands down
  return createWebClient(
    webSocketUrl(),
    takePageToken(),
    (state) => useConnectionStore.getState().setState(state),
    early
  )
}
