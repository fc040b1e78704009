/**
 * A first pass of the in-memory vector scan over an 8-bit copy of the vectors: a quarter of the
 * float scan's memory reads, which bound its time past the CPU's cache. Each row is rounded to
 * int8 with its own scale, the query to int16; the kernel returns each row's integer dot product,
 * exact in int32. With each row's rounding error kept, every approximate score comes with a bound
 * (see `dots`), so the caller re-scores in float32 only the rows that can still reach the top.
 *
 * The module is assembled here (under 100 bytes; `wasm-kernel.ts`), as the float kernel's is.
 */

import { addTo, get, I32, set, SIMD, V128, wasmKernel } from './wasm-kernel'

const ROW_MAX = 127

// Parameters and locals of `dots(rowsAt, queryAt, rows, dimension, outAt)`.
const [ROW, QUERY, ROWS, DIMENSION, OUT, ROW_END, Q, SUM] = [0, 1, 2, 3, 4, 5, 6, 7]
const lane = (at: number) => [...get(SUM), SIMD, 0x1b, at]

const body = [
  ...[0x02, 0x40, 0x03, 0x40], // block, loop (a row per turn)
  ...[...get(ROWS), 0x41, 0, 0x4c, 0x0d, 1], // no rows left: out of the block
  ...[...get(ROW), ...get(DIMENSION), 0x6a, ...set(ROW_END), ...get(QUERY), ...set(Q)],
  ...[SIMD, 0x0c, ...new Array<number>(16).fill(0), ...set(SUM)],
  ...[0x03, 0x40], // loop (eight values per turn)
  // sum += dot_i16x8(eight int8 of the row widened to int16, eight int16 of the query)
  ...[...get(SUM), ...get(ROW), SIMD, 0x01, 0x00, 0x00, ...get(Q), SIMD, 0x00, 0x00, 0x00],
  ...[SIMD, 0xba, 0x01, SIMD, 0xae, 0x01, ...set(SUM)],
  ...[...addTo(ROW, 8), ...addTo(Q, 16)],
  ...[...get(ROW), ...get(ROW_END), 0x49, 0x0d, 0], // more values in the row: again
  0x0b,
  ...[...get(OUT), ...lane(0), ...lane(1), 0x6a, ...lane(2), 0x6a, ...lane(3), 0x6a, 0x36, 0x02, 0x00],
  ...[...addTo(OUT, 4), ...get(ROWS), 0x41, 1, 0x6b, ...set(ROWS)],
  ...[0x0c, 0, 0x0b, 0x0b, 0x0b] // next row; end loop, block, function
]
const newKernel = wasmKernel('dots', [2, 2, I32, 1, V128, ...body])

/** A query rounded for the first pass, with what its bounds need. */
export interface QuantizedQuery {
  /** The score of a row is about `dot × rowScale × scale`. */
  readonly scale: number
  /** |q|, and |q − scale × rounded q| (the query's own rounding error). */
  readonly norm: number
  readonly errorNorm: number
}

/** Rows of int8 in a WebAssembly memory, each with its scale and the norms its error bound needs. */
export interface Int8Rows {
  /** Each row's scale: its value i is about `scale × int8[i]`. */
  readonly scales: Float64Array
  /** Each row's |u − scale × int8 row| (Euclidean), and |u| + that. */
  readonly errorNorms: Float64Array
  readonly roundedNorms: Float64Array
  reserve(rows: number): void
  /** Rounds row `row` (of `dimension` floats, already normalised) into the int8 copy. */
  set(row: number, values: Float32Array, from: number): void
  /** Row `from` moved to `to` (packing keeps rows in order, so `to` <= `from`). */
  move(from: number, to: number): void
  /**
   * Rounds the query and returns each of the first `rows` rows' integer dot product with it. The exact
   * float32 score of row i is within `errorNorms[i] × query.norm + roundedNorms[i] × query.errorNorm +
   * ROUNDING_MARGIN` of `dots[i] × scales[i] × query.scale`: with u = s·r + e (the row, its int8 copy
   * and its error) and q = t·p + f (the same for the query), u·q = s·t·(r·p) + s·r·f + e·q, and by
   * Cauchy–Schwarz |s·r·f| <= |s·r|·|f| <= (|u| + |e|)·|f| and |e·q| <= |e|·|q|.
   */
  dots(query: Float32Array, rows: number): { dots: Int32Array; query: QuantizedQuery }
}

/** Covers the float32 rounding of a score in [-1, 1] and the float64 arithmetic of the bound, with room to spare. */
export const ROUNDING_MARGIN = 1e-6

/** A first pass for rows of `dimension` floats, or null when it cannot serve them (no SIMD, or a width not a multiple of 8). */
export function createInt8Rows(dimension: number, capacity: number): Int8Rows | null {
  const kernel = dimension > 0 && dimension % 8 === 0 ? newKernel() : null
  if (!kernel) return null
  const { memory, run } = kernel
  // The query's largest value: the int32 sum of a row (|int8| <= 127) cannot overflow.
  const queryMax = Math.min(32_767, Math.floor((2 ** 31 - 1) / (ROW_MAX * dimension)))
  let room = 0
  let bytes = new Int8Array(0)
  const rows = {
    scales: new Float64Array(0),
    errorNorms: new Float64Array(0),
    roundedNorms: new Float64Array(0),
    reserve(count: number) {
      if (count <= room) return
      // The rows, then the query (int16), then an int32 per row.
      const queryAt = align(count * dimension)
      const need = queryAt + dimension * 2 + count * 4
      kernel.reserveBytes(need)
      room = count
      bytes = new Int8Array(memory.buffer, 0, count * dimension)
      rows.scales = grown(rows.scales, count)
      rows.errorNorms = grown(rows.errorNorms, count)
      rows.roundedNorms = grown(rows.roundedNorms, count)
    },
    set(row: number, values: Float32Array, from: number) {
      let largest = 0
      for (let i = 0; i < dimension; i++) largest = Math.max(largest, Math.abs(values[from + i]))
      const scale = largest / ROW_MAX
      let error = 0
      let norm = 0
      const at = row * dimension
      for (let i = 0; i < dimension; i++) {
        const value = values[from + i]
        const rounded = scale > 0 ? Math.round(value / scale) : 0
        bytes[at + i] = rounded
        const e = value - scale * rounded
        error += e * e
        norm += value * value
      }
      rows.scales[row] = scale
      rows.errorNorms[row] = Math.sqrt(error)
      rows.roundedNorms[row] = Math.sqrt(norm) + Math.sqrt(error)
    },
    move(from: number, to: number) {
      bytes.copyWithin(to * dimension, from * dimension, (from + 1) * dimension)
      rows.scales[to] = rows.scales[from]
      rows.errorNorms[to] = rows.errorNorms[from]
      rows.roundedNorms[to] = rows.roundedNorms[from]
    },
    dots(query: Float32Array, count: number) {
      const queryAt = align(room * dimension)
      const outAt = queryAt + dimension * 2
      const rounded = new Int16Array(memory.buffer, queryAt, dimension)
      let largest = 0
      for (let i = 0; i < dimension; i++) largest = Math.max(largest, Math.abs(query[i]))
      const scale = largest / queryMax
      let norm = 0
      let error = 0
      for (let i = 0; i < dimension; i++) {
        const p = scale > 0 ? Math.round(query[i] / scale) : 0
        rounded[i] = p
        const e = query[i] - scale * p
        norm += query[i] * query[i]
        error += e * e
      }
      run(0, queryAt, count, dimension, outAt)
      return {
        dots: new Int32Array(memory.buffer, outAt, count),
        query: { scale, norm: Math.sqrt(norm), errorNorm: Math.sqrt(error) }
      }
    }
  }
  rows.reserve(Math.max(capacity, 16))
  return rows
}

const align = (bytes: number) => Math.ceil(bytes / 16) * 16

function grown(array: Float64Array<ArrayBuffer>, length: number): Float64Array<ArrayBuffer> {
  if (array.length >= length) return array
  const bigger = new Float64Array(length)
  bigger.set(array)
  return bigger
}
