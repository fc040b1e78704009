import type * as Arrow from 'apache-arrow'
import { createInt8Rows, ROUNDING_MARGIN, type Int8Rows } from './int8-dot'
import { createDotKernel, type DotKernel } from './simd-dot'

export interface VectorHit {
  id: string
  /** Cosine similarity, 1 = same direction. */
  similarity: number
}

export interface VectorRow {
  id: string
  path: string
  vector: ArrayLike<number>
}

/** Removed rows tolerated (and at least this share of all rows) before the arrays are packed again. */
const REMOVED_BEFORE_PACKING = 1_000
const REMOVED_SHARE_BEFORE_PACKING = 0.25

function normaliseInto(target: Float32Array, offset: number, source: ArrayLike<number>): void {
  let norm = 0
  for (let i = 0; i < source.length; i++) norm += source[i] * source[i]
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let i = 0; i < source.length; i++) target[offset + i] = source[i] * scale
}

/**
 * Every stored vector, normalised, in one growing array: an exact cosine scan without a LanceDB
 * query. Kept up to date by the store's writes in place: an add appends (the array grows by
 * doubling), a removal marks the file's rows, and the rows are packed once many are removed.
 * Copying the whole array and its id list on each write cost about a second per edited file at
 * 124k vectors under load.
 */
export class MemoryVectors {
  private ids: string[] = []
  /** Each row's file; '' once the row is removed. Paths are shared strings, one per file. */
  private paths: string[] = []
  private rowsOf = new Map<string, number[]>()
  private unit: Float32Array
  /** The scan in WebAssembly SIMD, whose memory holds `unit` (null: the JavaScript loop scans). */
  private readonly kernel: DotKernel | null
  /** The int8 copy a query scans first (null: the float scan reads every row). */
  private readonly int8: Int8Rows | null
  private removed = 0

  /** `options.errorBoundScale` exists for tests: it shows a wrong bound changes the answers. */
  constructor(
    readonly dimension: number,
    capacity = 0,
    options: { int8FirstPass?: boolean; errorBoundScale?: number } = {}
  ) {
    this.kernel = createDotKernel(dimension, Math.max(capacity, 16))
    this.unit = this.kernel?.floats ?? new Float32Array(Math.max(capacity, 16) * dimension)
    this.int8 = options.int8FirstPass === false ? null : createInt8Rows(dimension, Math.max(capacity, 16))
    this.errorBoundScale = options.errorBoundScale ?? 1
  }

  private readonly errorBoundScale: number

  /** Rows that can be found (removed ones not counted). */
  get size(): number {
    return this.ids.length - this.removed
  }

  /** Floats held for live rows: what the memory cap compares. */
  get floats(): number {
    return this.size * this.dimension
  }

  add(rows: readonly VectorRow[]): boolean {
    if (rows.some((r) => r.vector.length !== this.dimension)) return false
    this.reserve(this.ids.length + rows.length)
    for (const row of rows) this.push(row.id, row.path, row.vector)
    return true
  }

  removePaths(paths: readonly string[]): void {
    for (const path of paths) {
      const rows = this.rowsOf.get(path)
      if (!rows) continue
      for (const row of rows) this.paths[row] = ''
      this.removed += rows.length
      this.rowsOf.delete(path)
    }
    if (this.removed > REMOVED_BEFORE_PACKING && this.removed > this.ids.length * REMOVED_SHARE_BEFORE_PACKING)
      this.pack()
  }

  /** The `limit` nearest by cosine similarity (ties: stored order), as LanceDB's flat search ranks them. */
  nearest(vector: readonly number[], limit: number, pathPrefix?: string): VectorHit[] {
    const { dimension } = this
    if (vector.length !== dimension || limit <= 0) return []
    const query = new Float32Array(dimension)
    normaliseInto(query, 0, vector)
    const folder = pathPrefix ? `${pathPrefix}/` : ''
    const wanted = (row: number) => {
      const path = this.paths[row]
      return path !== '' && (!pathPrefix || path === pathPrefix || path.startsWith(folder))
    }
    if (this.int8) return this.rankCandidates(query, limit, wanted, this.int8)
    const scores = this.scores(query)
    const best: VectorHit[] = []
    for (let row = 0; row < scores.length; row++) this.offer(best, limit, row, scores[row], wanted)
    return best
  }

  /** Adds `row` to `best` (sorted, at most `limit`) if it ranks there; ties keep the earlier row. */
  private offer(best: VectorHit[], limit: number, row: number, dot: number, wanted: (row: number) => boolean): void {
    if (best.length === limit && dot <= best[limit - 1].similarity) return
    if (!wanted(row)) return
    let at = best.length
    while (at > 0 && best[at - 1].similarity < dot) at--
    best.splice(at, 0, { id: this.ids[row], similarity: dot })
    if (best.length > limit) best.pop()
  }

  /**
   * The int8 pass gives each row an interval its exact score lies in (see `Int8Rows.dots`). The
   * `limit`-th highest lower end among the wanted rows is a floor the top's exact scores reach; a row
   * whose upper end is below it cannot rank. The others are scored exactly as the float scan scores
   * them, in row order, so the hits, their scores and the ties' order are the float scan's. One pass:
   * the floor only rises, so a row left out on the way stays out.
   */
  private rankCandidates(
    query: Float32Array,
    limit: number,
    wanted: (row: number) => boolean,
    int8: Int8Rows
  ): VectorHit[] {
    const rows = this.ids.length
    const { dots, query: rounded } = int8.dots(query, rows)
    const { scales, errorNorms, roundedNorms } = int8
    const slack = this.errorBoundScale
    const [perError, perRounded, margin] = [rounded.norm * slack, rounded.errorNorm * slack, ROUNDING_MARGIN * slack]
    const lows: number[] = []
    let floor = -Infinity
    const candidates: number[] = []
    const highs: number[] = []
    for (let row = 0; row < rows; row++) {
      const approximate = dots[row] * scales[row] * rounded.scale
      const bound = errorNorms[row] * perError + roundedNorms[row] * perRounded + margin
      if (approximate + bound < floor || !wanted(row)) continue
      candidates.push(row)
      highs.push(approximate + bound)
      const low = approximate - bound
      if (low <= floor) continue
      let at = lows.length
      while (at > 0 && lows[at - 1] < low) at--
      lows.splice(at, 0, low)
      if (lows.length > limit) lows.pop()
      if (lows.length === limit) floor = lows[limit - 1]
    }
    const best: VectorHit[] = []
    for (let i = 0; i < candidates.length; i++) {
      if (highs[i] >= floor) this.offer(best, limit, candidates[i], this.score(candidates[i], query), wanted)
    }
    return best
  }

  /** One row's dot product with the query, summed as the float scan sums it (so the same float32). */
  private score(row: number, query: Float32Array): number {
    const { dimension, unit } = this
    const base = row * dimension
    let a = 0
    let b = 0
    let c = 0
    let d = 0
    for (let i = 0; i < dimension; i += 4) {
      a += unit[base + i] * query[i]
      b += unit[base + i + 1] * query[i + 1]
      c += unit[base + i + 2] * query[i + 2]
      d += unit[base + i + 3] * query[i + 3]
    }
    return Math.fround(a + b + c + d)
  }

  /** Every row's dot product with the query, four lanes at a time (one accumulator waits on each add). */
  private scores(query: Float32Array): Float32Array {
    const { dimension, unit } = this
    const rows = this.ids.length
    if (this.kernel) return this.kernel.scores(query, rows)
    const scores = new Float32Array(rows)
    const lanes = dimension - (dimension % 4)
    for (let row = 0, base = 0; row < rows; row++, base += dimension) {
      let a = 0
      let b = 0
      let c = 0
      let d = 0
      let i = 0
      for (; i < lanes; i += 4) {
        a += unit[base + i] * query[i]
        b += unit[base + i + 1] * query[i + 1]
        c += unit[base + i + 2] * query[i + 2]
        d += unit[base + i + 3] * query[i + 3]
      }
      for (; i < dimension; i++) a += unit[base + i] * query[i]
      scores[row] = a + b + c + d
    }
    return scores
  }

  /**
   * Reads Arrow batches of id, path and vector columns, column by column (row objects would cost
   * seconds at 10k rows under load); the floats come straight from the list column's child data.
   */
  static fromBatches(batches: readonly Arrow.RecordBatch[], count: number, dimension: number): MemoryVectors {
    const memory = new MemoryVectors(dimension, count)
    for (const batch of batches) {
      const ids = batch.getChild('id')!
      const paths = batch.getChild('path')!
      const vectors = batch.getChild('vector')!
      let row = 0
      for (const data of vectors.data) {
        const floats = data.children[0]
        const values = floats.values as Float32Array
        for (let i = 0; i < data.length; i++, row++) {
          const start = floats.offset + (data.offset + i) * dimension
          memory.reserve(memory.ids.length + 1)
          memory.push(String(ids.get(row)), String(paths.get(row)), values.subarray(start, start + dimension))
        }
      }
    }
    return memory
  }

  private push(id: string, path: string, vector: ArrayLike<number>): void {
    const row = this.ids.length
    let rows = this.rowsOf.get(path)
    if (!rows) this.rowsOf.set(path, (rows = []))
    else path = this.paths[rows[0]] // the file's one string
    rows.push(row)
    this.ids.push(id)
    this.paths.push(path)
    normaliseInto(this.unit, row * this.dimension, vector)
    this.int8?.set(row, this.unit, row * this.dimension)
  }

  private reserve(rows: number): void {
    this.int8?.reserve(rows)
    if (rows * this.dimension <= this.unit.length) return
    const room = Math.max(rows, (this.unit.length / this.dimension) * 2)
    if (this.kernel) {
      this.kernel.reserve(room)
      this.unit = this.kernel.floats
      return
    }
    const bigger = new Float32Array(room * this.dimension)
    bigger.set(this.unit)
    this.unit = bigger
  }

  /** Drops the removed rows, keeping the others in their order. */
  private pack(): void {
    const { dimension } = this
    const ids: string[] = []
    const paths: string[] = []
    this.rowsOf.clear()
    for (let row = 0; row < this.ids.length; row++) {
      const path = this.paths[row]
      if (!path) continue
      const at = ids.length
      if (at !== row) {
        this.unit.copyWithin(at * dimension, row * dimension, (row + 1) * dimension)
        this.int8?.move(row, at)
      }
      ids.push(this.ids[row])
      paths.push(path)
      let rows = this.rowsOf.get(path)
      if (!rows) this.rowsOf.set(path, (rows = []))
      rows.push(at)
    }
    this.ids = ids
    this.paths = paths
    this.removed = 0
  }
}
