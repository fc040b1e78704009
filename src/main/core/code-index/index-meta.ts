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

const IndexMeta = z.object({
  version: z.literal(1),
  root: z.string(),
  embedding: EmbeddingIdentity.nullable(),
  files: z.record(z.string(), IndexedFile)
})
export type IndexMeta = z.infer<typeof IndexMeta>

export const emptyMeta = (root: string): IndexMeta => ({ version: 1, root, embedding: null, files: {} })

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
