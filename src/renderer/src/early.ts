import { openEarlyConnection } from './client/early-connection'

// Built apart from the app, as a classic script the page runs first (electron.vite.config.ts).
const early = openEarlyConnection()
if (early) window.modusEarly = early
