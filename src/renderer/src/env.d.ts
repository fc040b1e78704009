/// <reference types="vite/client" />

interface Window {
  /** Present only inside the Electron app (see src/preload/index.ts). */
  modus?: {
    invoke(channel: string, payload: unknown): Promise<unknown>
    onEvent(listener: (name: string, payload: unknown) => void): () => void
  }
  /** The web page's socket, opened before the app's scripts load (client/early-connection.ts); `null` once the app started. */
  modusEarly?: import('./client/early-connection').EarlyConnection | null
}
