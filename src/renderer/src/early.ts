import { openEarlyConnection } from './client/early-connection'
import { applyCachedTheme } from './common/settings/theme-cache'

// Built apart from the app, as a classic script the page runs first (electron.vite.config.ts).
const early = openEarlyConnection()
if (early) {
  window.modusEarly = early
  applyCachedTheme(document.documentElement) // after the socket is on its way; the app then skips it
}
