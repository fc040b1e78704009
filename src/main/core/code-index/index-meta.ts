import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { writeFileAtomic } from '../fs/atomic-write'

const IndexedFile = z.object({
  hash: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  chunks: z.number().int().nonnegative(),
  /** All its chunks have vectors of the recorded model. */
  embedded: z.boolean()
})
export type IndexedFile = z.infer<typeof IndexedFile>

/** Which embeddings the vectors on disk come from; a different one means re-embedding. */
const EmbeddingIdentity = z.object({ baseUrl: z.string(), model: z.string(), dimension: z.number().int().positive() })
export type EmbeddingIdentity = z.infer<typeof EmbeddingIdentity>

/** A folder the last full scan did not enter, and why (the tools name them to the model). */
const SkippedFolder = z.object({ path: z.string(), reason: z.enum(['built-in', 'gitignore', 'ignore-file']) })
export type SkippedFolder = z.infer<typeof SkippedFolder>

const IndexMeta = z.object({
  // 2: chunks carry a `terms` column with LanceDB's full-text index (1 kept BM25 postings in memory).
  version: z.literal(2),
  root: z.string(),
  embedding: EmbeddingIdentity.nullable(),
  /** A full scan has finished once: the index covers the workspace as of then and answers from disk. */
  complete: z.boolean(),
  skipped: z.array(SkippedFolder),
  files: z.record(z.string(), IndexedFile)
})
export type IndexMeta = z.infer<typeof IndexMeta>

export const emptyMeta = (root: string): IndexMeta => ({
  version: 2,
  root,
  embedding: null,
  complete: false,
  skipped: [],
  files: {}
})

/** The index's bookkeeping (a JSON file beside the LanceDB tables); a damaged or foreign file starts over. */
export async function loadMeta(file: string, root: string): Promise<{ meta: IndexMeta; fresh: boolean }> {
  const text = await readFile(file, 'utf8').catch(() => null)
  if (text !== null) {
    try {
      const parsed = IndexMeta.safeParse(JSON.parse(text))
      if (parsed.success && parsed.data.root === root) return { meta: parsed.data, fresh: false }
    } catch {
      // damaged: rebuilt below
    }
  }
  return { meta: emptyMeta(root), fresh: true }
}

export const saveMeta = (file: string, meta: IndexMeta): Promise<void> => writeFileAtomic(file, JSON.stringify(meta))
