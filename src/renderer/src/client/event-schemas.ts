/**
 * Loads the contract's event schemas once the first screen has painted (two animation frames
 * after start): building them is main-thread work that would otherwise delay that paint. Events
 * that arrive before are held by the lazy fanout, not dropped.
 */
export function loadEventSchemasAfterPaint(): Promise<typeof import('../../../shared/contract/client-events')> {
  return new Promise<void>((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
    // A tab opened in the background paints nothing, so frames never come: do not hold events forever.
    setTimeout(resolve, 500)
  }).then(() => import('../../../shared/contract/client-events'))
}
