/** The contract's event schemas (zod, and the policy engine the mode schema needs): a chunk of their own. */
export const loadEventSchemas = (): Promise<typeof import('../../../shared/contract/client-events')> =>
  import('../../../shared/contract/client-events')

/** A new task of the page's event loop: held events wait for it after an answer (see createLazyEventFanout). */
export const nextTask = (run: () => void): void => void setTimeout(run, 0)
