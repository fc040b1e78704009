/** The contract's event schemas (zod, and the policy engine the mode schema needs): a chunk of their own. */
export const loadEventSchemas = (): Promise<typeof import('../../../shared/contract/client-events')> =>
  import('../../../shared/contract/client-events')
