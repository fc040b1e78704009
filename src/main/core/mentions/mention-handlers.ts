import type { Handlers } from '../../../shared/contract'
import { MENTION_CANDIDATE_LIMIT, type MentionCandidate } from '../../../shared/contract/mentions'
import { rankPaths } from '../../../shared/mentions/fuzzy'
import type { Workspace } from '../workspace/types'

/** A tree this big is listed once; beyond it completion offers what the walk reached. */
const MAX_LISTED = 50_000
/** Typing queries again within this time reuses the listing (a keystroke must not walk the tree). */
const LISTING_TTL_MS = 10_000

export interface MentionHandlerDeps {
  workspace(root: string): Promise<Workspace>
  currentWorkspace(): string | null
  now?: () => number
}

/** `mentions:complete`: workspace paths for the composer's `@` list, from a short-lived listing cache. */
export function createMentionHandlers(deps: MentionHandlerDeps): Pick<Handlers, 'mentions:complete'> {
  const now = deps.now ?? Date.now
  let cached: { root: string; at: number; entries: Promise<MentionCandidate[]> } | null = null

  const listing = (root: string): Promise<MentionCandidate[]> => {
    if (cached && cached.root === root && now() - cached.at < LISTING_TTL_MS) return cached.entries
    const entries = deps
      .workspace(root)
      .then((workspace) => workspace.list('.', { recursive: true, limit: MAX_LISTED }))
      .then(({ entries }) => entries.map((e) => ({ path: e.path, isDirectory: e.isDirectory })))
    cached = { root, at: now(), entries }
    entries.catch(() => {
      if (cached?.entries === entries) cached = null
    })
    return entries
  }

  return {
    async 'mentions:complete'({ query }) {
      const root = deps.currentWorkspace()
      if (!root) return { candidates: [], truncated: false }
      const { ranked, truncated } = rankPaths(await listing(root), query, MENTION_CANDIDATE_LIMIT)
      return { candidates: ranked, truncated }
    }
  }
}
