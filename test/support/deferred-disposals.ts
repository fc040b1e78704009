/**
 * Ends what a test started without holding up the next test. Closing a stdio MCP server waits up to
 * 2 s for it to exit once its input ends (the MCP SDK's grace period before SIGTERM), and the
 * reference server takes all of it every time. A file's tests start each disposal and go on;
 * `settle` (in afterAll, or before a test that must see no leftover servers) waits for them all and
 * fails with the first disposal that failed.
 */
export interface DeferredDisposals {
  add(disposal: Promise<unknown>): void
  settle(): Promise<void>
}

export function createDeferredDisposals(): DeferredDisposals {
  const pending: Promise<unknown>[] = []
  return {
    add(disposal) {
      disposal.catch(() => undefined) // reported by settle, not as an unhandled rejection
      pending.push(disposal)
    },
    async settle() {
      await Promise.all(pending.splice(0))
    }
  }
}
