/// <reference types="vite/client" />

interface Window {
  /** Present only inside the Electron app (see src/preload/index.ts). */
  modus?: {
    invoke(channel: string, payload: unknown): Promise<unknown>
    onEvent(listener: (name: string, payload: unknown) => void): () => void
  }
}
