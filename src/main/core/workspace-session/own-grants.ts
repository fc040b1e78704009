import type { TrustStore } from './trust-store'
import type { WorkspaceSession } from './workspace-handlers'

export interface OwnGrantsDeps {
  trust: TrustStore
  session: WorkspaceSession
  /** What the folder grants now, one item each: its modes' grants and its MCP servers. */
  grantItems: (root: string) => Promise<string[]>
}

/**
 * Wraps a mode change the user makes in the app (save, import) so the grants it adds to the project
 * count as seen: they are the user's own, not a cloned repository's. A trusted folder keeps its
 * trust; a folder never asked about that granted nothing before becomes trusted with exactly the
 * user's grants (any grant a file adds later asks again). A folder the user declined stays declined.
 */
export function withOwnGrants<Input extends { scope: string }, Output>(
  deps: OwnGrantsDeps,
  change: (input: Input) => Promise<Output>
): (input: Input) => Promise<Output> {
  return async (input) => (input.scope === 'project' ? asOwnGrants(deps, () => change(input)) : change(input))
}

/** Runs a change of the open folder's modes the user made, and counts the grants it adds as seen. */
export async function asOwnGrants<Output>(deps: OwnGrantsDeps, change: () => Promise<Output>): Promise<Output> {
  const root = deps.session.current()?.root
  if (!root) return change()
  const before = await deps.grantItems(root)
  const result = await change()
  const after = await deps.grantItems(root)
  const own = after.filter((grant) => !before.includes(grant))
  if (own.length > 0) {
    if (deps.trust.isTrusted(root, [])) await deps.trust.addSeenGrants(root, own)
    else if (!deps.trust.hasAnswered(root) && before.length === 0) await deps.trust.set(root, true, after)
    await deps.session.refresh()
  }
  return result
}
