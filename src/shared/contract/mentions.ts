import { z } from 'zod'
import { request } from './define'

export const MentionCandidate = z.object({
  /** Workspace-relative POSIX path. */
  path: z.string(),
  isDirectory: z.boolean()
})
export type MentionCandidate = z.infer<typeof MentionCandidate>

/** At most this many candidates come back for one query. */
export const MENTION_CANDIDATE_LIMIT = 50

export const mentionsRequests = {
  /**
   * Files and folders of the open workspace matching what the user typed after `@` (fuzzy, best
   * first, capped); ignored files (.modusignore, .gitignore) are not offered.
   */
  'mentions:complete': request(
    z.object({ query: z.string().max(1024) }).strict(),
    z.object({ candidates: z.array(MentionCandidate).max(MENTION_CANDIDATE_LIMIT), truncated: z.boolean() })
  )
}
