import type { LexicalHit, StoredChunk, VectorHit } from './vector-store'

export interface FusedHit {
  id: string
  /** 0–1: reciprocal-rank fusion of the rankings, divided by its best possible value. */
  score: number
  lexicalRank?: number
  similarity?: number
}

export type SearchHit = FusedHit & { chunk: StoredChunk }

/** Rank constant of reciprocal-rank fusion: the usual 60 keeps one ranking's top from dominating. */
const RRF_K = 60

/** Combines the BM25 (LanceDB full-text) and the vector rankings by reciprocal-rank fusion. */
export function fuseRankings(
  lexical: ReadonlyArray<Pick<LexicalHit, 'id' | 'score'>>,
  semantic: readonly VectorHit[]
): FusedHit[] {
  const rankings = (lexical.length > 0 ? 1 : 0) + (semantic.length > 0 ? 1 : 0)
  if (rankings === 0) return []
  const best = rankings / (RRF_K + 1)
  const fused = new Map<string, FusedHit & { raw: number }>()
  const entry = (id: string) => {
    let hit = fused.get(id)
    if (!hit) fused.set(id, (hit = { id, score: 0, raw: 0 }))
    return hit
  }
  lexical.forEach((hit, rank) => {
    const e = entry(hit.id)
    e.raw += 1 / (RRF_K + rank + 1)
    e.lexicalRank = rank + 1
  })
  semantic.forEach((hit, rank) => {
    const e = entry(hit.id)
    e.raw += 1 / (RRF_K + rank + 1)
    e.similarity = hit.similarity
  })
  return [...fused.values()].sort((a, b) => b.raw - a.raw).map(({ raw, ...hit }) => ({ ...hit, score: raw / best }))
}
