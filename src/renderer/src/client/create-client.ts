import type { ModusClient } from '../../../shared/contract'
import { createElectronClient } from './electron-client'
import { createWebClient } from './web-client'
import { useConnectionStore } from './connection-store'
import { rememberPageToken, takePageToken } from './page-token'
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
  if (early) keepForReload(early.token, firstScreen)
  return createWebClient(
    webSocketUrl(),
    early ? early.token : takePageToken(),
    (state) => useConnectionStore.getState().setState(state),
    early,
    firstScreen.whenIdleAfter
  )
}

/** After the first screen, or at once if the page is left before (a reload must find the token). */
function keepForReload(token: string, firstScreen: FirstScreen): void {
  const remember = (): void => rememberPageToken(token)
  firstScreen.whenIdleAfter(remember)
  window.addEventListener('pagehide', remember, { once: true })
}
