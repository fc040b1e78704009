import { tokenize } from './tokenize'

export interface LexicalHit {
  id: string
  score: number
}

interface Posting {
  docs: number[]
  freqs: number[]
}

const K1 = 1.2
const B = 0.75

/**
 * An in-memory BM25 index over chunks. Documents are numbered; removing one leaves a tombstone that
 * searches skip, and postings are compacted once tombstones pile up (files re-indexed often).
 */
export function createBm25Index() {
  let ids: Array<string | null> = []
  let paths: string[] = []
  let lengths: number[] = []
  let postings = new Map<string, Posting>()
  const docsByPath = new Map<string, number[]>()
  let live = 0
  let totalLength = 0

  const add = (id: string, path: string, text: string): void => {
    const terms = tokenize(text)
    const doc = ids.length
    ids.push(id)
    paths.push(path)
    lengths.push(terms.length)
    live++
    totalLength += terms.length
    const counts = new Map<string, number>()
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
    for (const [term, count] of counts) {
      let posting = postings.get(term)
      if (!posting) postings.set(term, (posting = { docs: [], freqs: [] }))
      posting.docs.push(doc)
      posting.freqs.push(count)
    }
    const own = docsByPath.get(path)
    if (own) own.push(doc)
    else docsByPath.set(path, [doc])
  }

  const compact = (): void => {
    const remap = new Int32Array(ids.length).fill(-1)
    const next: { ids: string[]; paths: string[]; lengths: number[] } = { ids: [], paths: [], lengths: [] }
    ids.forEach((id, doc) => {
      if (id === null) return
      remap[doc] = next.ids.length
      next.ids.push(id)
      next.paths.push(paths[doc])
      next.lengths.push(lengths[doc])
    })
    const compacted = new Map<string, Posting>()
    for (const [term, posting] of postings) {
      const kept: Posting = { docs: [], freqs: [] }
      posting.docs.forEach((doc, i) => {
        if (remap[doc] >= 0) (kept.docs.push(remap[doc]), kept.freqs.push(posting.freqs[i]))
      })
      if (kept.docs.length) compacted.set(term, kept)
    }
    for (const [path, docs] of docsByPath) docsByPath.set(path, docs.map((d) => remap[d]))
    ids = next.ids
    paths = next.paths
    lengths = next.lengths
    postings = compacted
  }

  const removePath = (path: string): void => {
    const docs = docsByPath.get(path)
    if (!docs) return
    for (const doc of docs) {
      ids[doc] = null
      live--
      totalLength -= lengths[doc]
    }
    docsByPath.delete(path)
    if (ids.length > 1000 && live < ids.length / 2) compact()
  }

  /** Best `limit` chunks for the query; `accept` keeps chunks by path (a directory prefix). */
  const search = (query: string, limit: number, accept?: (path: string) => boolean): LexicalHit[] => {
    const terms = [...new Set(tokenize(query))]
    if (terms.length === 0 || live === 0) return []
    // Scores by document number, and the documents in the order they were first scored: common
    // terms have postings of tens of thousands of chunks.
    const scores = new Float64Array(ids.length)
    const scored: number[] = []
    const averageLength = totalLength / live || 1
    for (const term of terms) {
      const posting = postings.get(term)
      if (!posting) continue
      const { docs, freqs } = posting
      let frequency = 0
      for (let i = 0; i < docs.length; i++) if (ids[docs[i]] !== null) frequency++
      if (frequency === 0) continue
      const idf = Math.log(1 + (live - frequency + 0.5) / (frequency + 0.5))
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]
        if (ids[doc] === null) continue
        const tf = freqs[i]
        const norm = tf + K1 * (1 - B + (B * lengths[doc]) / averageLength)
        // Every term adds a positive score: zero means not scored yet.
        if (scores[doc] === 0) scored.push(doc)
        scores[doc] += (idf * tf * (K1 + 1)) / norm
      }
    }
    const candidates = accept ? scored.filter((doc) => accept(paths[doc])) : scored
    return best(candidates, scores, limit).map((doc) => ({ id: ids[doc] as string, score: scores[doc] }))
  }

  return {
    add,
    removePath,
    search,
    get size() {
      return live
    },
    clear(): void {
      ids = []
      paths = []
      lengths = []
      postings = new Map()
      docsByPath.clear()
      live = 0
      totalLength = 0
    }
  }
}

export type Bm25Index = ReturnType<typeof createBm25Index>

/** The `limit` best documents by score, ties in the order given (as a stable sort would rank them). */
function best(docs: readonly number[], scores: Float64Array, limit: number): number[] {
  const top: number[] = []
  if (limit <= 0) return top
  for (const doc of docs) {
    const score = scores[doc]
    if (top.length === limit && score <= scores[top[limit - 1]]) continue
    let at = top.length
    while (at > 0 && scores[top[at - 1]] < score) at--
    top.splice(at, 0, doc)
    if (top.length > limit) top.pop()
  }
  return top
}
