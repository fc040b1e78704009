/** The contract's event schemas (zod, and the policy engine the mode schema needs): a chunk of their own. */
export const loadEventSchemas = (): Promise<typeof import('../../../shared/contract/client-events')> =>
  import('../../../shared/contract/client-events')

/** Without frames (a tab opened in the background paints nothing), still load them, later. */
const BACKGROUND_FALLBACK_MS = 3000

/**
 * When the event fanout loads the schemas if no event asks for them first: once the browser is
 * idle after the first paint. Building them is a long main-thread task; run earlier, it lands
 * between the first screen's answers and its paint and delays the first interactive paint.
 */
export function whenIdleAfterFirstPaint(start: () => void): void {
  const whenIdle = (): void => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 2000 })
    else setTimeout(start, 0)
  }
  requestAnimationFrame(() => requestAnimationFrame(whenIdle))
  setTimeout(start, BACKGROUND_FALLBACK_MS)
}
