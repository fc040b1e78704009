import type { ModusClient } from '../../../shared/contract'
import { createElectronClient } from './electron-client'
import { createWebClient } from './web-client'
import { useConnectionStore } from './connection-store'
import { takePageToken } from './page-token'

/** Picks the transport at start: the preload bridge inside Electron, a WebSocket in a browser. */
export function createClient(): ModusClient {
  if (window.modus) {
    useConnectionStore.getState().setState('open')
    return createElectronClient(window.modus)
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return createWebClient(`${scheme}//${location.host}/ws`, takePageToken(), (state) =>
    useConnectionStore.getState().setState(state)
  )
}
