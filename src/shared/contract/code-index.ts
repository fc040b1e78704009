import { z } from 'zod'
import { request } from './define'

/** Where the lexical (BM25) index of the open workspace stands. */
export const CodeIndexState = z.enum(['idle', 'loading', 'indexing', 'ready', 'cancelled', 'error'])
export type CodeIndexState = z.infer<typeof CodeIndexState>

/** The semantic side: off (no embeddings configured), or the vectors' state. */
export const SemanticState = z.enum(['off', 'pending', 'embedding', 'ready', 'failed'])
export type SemanticState = z.infer<typeof SemanticState>

export const CodeIndexStatus = z.object({
  /** The indexed workspace (null: no folder open). */
  workspace: z.string().nullable(),
  state: CodeIndexState,
  filesDone: z.number().int().nonnegative(),
  filesTotal: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  /** Files that could not be indexed (unreadable, parse failure), with the last few reasons. */
  errors: z.number().int().nonnegative(),
  recentErrors: z.array(z.object({ path: z.string(), message: z.string() })),
  semantic: z.object({
    state: SemanticState,
    model: z.string().optional(),
    dimension: z.number().int().positive().optional(),
    chunksEmbedded: z.number().int().nonnegative(),
    chunksTotal: z.number().int().nonnegative(),
    /** Why semantic search is unavailable (the endpoint's error), when it is. */
    message: z.string().optional()
  }),
  /** One line for the UI. */
  message: z.string()
})
export type CodeIndexStatus = z.infer<typeof CodeIndexStatus>

const none = z.object({}).strict()

export const codeIndexRequests = {
  'codeindex:status': request(none, CodeIndexStatus),
  /** Drops the workspace's index and builds it again. */
  'codeindex:rebuild': request(none, CodeIndexStatus),
  /** Deletes the workspace's index from disk (it is built again on the next search or rebuild). */
  'codeindex:clear': request(none, CodeIndexStatus),
  'codeindex:cancel': request(none, CodeIndexStatus),
  /** Continues a cancelled (or interrupted) build from where it stopped: files already indexed are skipped by stat. */
  'codeindex:resume': request(none, CodeIndexStatus)
}

export const codeIndexEvents = {
  'codeindex:progress': CodeIndexStatus
}
