/**
 * The in-memory vector scan's dot products in WebAssembly SIMD. The JavaScript loop cost 1.65 ms for
 * 16.7k vectors of 64 alone and about twice that inside a hybrid query, beside LanceDB's threads.
 * Each product and sum is done in double precision in the order the JavaScript loop used (four
 * lanes, then ((a + b) + c) + d, rounded to float32), so the scores, and so the rankings, are the
 * same bit for bit.
 *
 * The module is assembled here (about 150 bytes; `wasm-kernel.ts`): no build step, no binary in the tree.
 */

import { addTo, get, I32, set, SIMD, V128, wasmKernel } from './wasm-kernel'

/** Vectors in a WebAssembly memory the kernel reads: one row of `dimension` floats after another. */
export interface DotKernel {
  /** The rows' floats (a new view after each `reserve` that grew the memory). */
  readonly floats: Float32Array
  /** Room for `rows` rows, the query and the scores; the rows stored so far are kept. */
  reserve(rows: number): void
  /** Each of the first `rows` rows' dot product with `query` (of `dimension` floats). */
  scores(query: Float32Array, rows: number): Float32Array
}

// Parameters and locals of `scores(rowsAt, queryAt, rows, dimension, outAt)`.
const [ROW, QUERY, ROWS, DIMENSION, OUT, ROW_END, Q, NEXT] = [0, 1, 2, 3, 4, 5, 6, 7]
const [LO, HI, LO_NEXT, HI_NEXT, X, Y_LO, Y_HI] = [8, 9, 10, 11, 12, 13, 14]
const zeroV128 = [SIMD, 0x0c, ...new Array<number>(16).fill(0)]
const loadV128 = [SIMD, 0x00, 0x02, 0x00]
const promoteLow = [SIMD, 0x5f]
const f64x2Mul = [SIMD, 0xf2, 0x01]
const f64x2Add = [SIMD, 0xf0, 0x01]
/** Lanes 2 and 3 of the float32x4 on the stack moved to 0 and 1 (so that promoteLow widens them). */
const highHalf = (local: number) => [
  ...get(local),
  ...get(local),
  SIMD,
  0x0d,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  0,
  1,
  2,
  3,
  4,
  5,
  6,
  7
]
const lane = (local: number, at: number) => [...get(local), SIMD, 0x21, at]

/** x = the four floats at `row`; lo += (x[0], x[1]) * (y[0], y[1]); hi += (x[2], x[3]) * (y[2], y[3]), in float64. */
const accumulate = (row: number, lo: number, hi: number) => [
  ...[...get(row), ...loadV128, ...set(X)],
  ...[...get(lo), ...get(X), ...promoteLow, ...get(Y_LO), ...f64x2Mul, ...f64x2Add, ...set(lo)],
  ...[...get(hi), ...highHalf(X), ...promoteLow, ...get(Y_HI), ...f64x2Mul, ...f64x2Add, ...set(hi)]
]
/** The score at `outAt + bytes`: ((a + b) + c) + d, as the JavaScript loop summed its four lanes, demoted to float32. */
const store = (lo: number, hi: number, bytes: number) => [
  ...get(OUT),
  ...[...lane(lo, 0), ...lane(lo, 1), 0xa0, ...lane(hi, 0), 0xa0, ...lane(hi, 1), 0xa0],
  ...[0xb6, 0x38, 0x02, bytes]
]

// Two rows per turn, each with its own accumulators, sharing the query's floats: the adds of one row
// wait on each other (their order is what keeps the sums exact), the two rows' do not. With an odd
// count the last turn also scores the row after the last (scratch the caller leaves room for).
const body = [
  ...[0x02, 0x40, 0x03, 0x40], // block, loop (two rows per turn)
  ...[...get(ROWS), 0x41, 0, 0x4c, 0x0d, 1], // no rows left (rows <= 0): out of the block
  ...[...get(ROW), ...get(DIMENSION), 0x41, 2, 0x74, 0x6a, ...set(ROW_END)],
  ...[...get(ROW_END), ...set(NEXT), ...get(QUERY), ...set(Q)],
  ...[...zeroV128, ...set(LO), ...zeroV128, ...set(HI), ...zeroV128, ...set(LO_NEXT), ...zeroV128, ...set(HI_NEXT)],
  ...[0x03, 0x40], // loop (four floats of each row per turn)
  ...[
    ...get(Q),
    ...loadV128,
    ...set(X),
    ...get(X),
    ...promoteLow,
    ...set(Y_LO),
    ...highHalf(X),
    ...promoteLow,
    ...set(Y_HI)
  ],
  ...accumulate(ROW, LO, HI),
  ...accumulate(NEXT, LO_NEXT, HI_NEXT),
  ...[...addTo(ROW, 16), ...addTo(NEXT, 16), ...addTo(Q, 16)],
  ...[...get(ROW), ...get(ROW_END), 0x49, 0x0d, 0], // more floats in the row: again
  0x0b,
  ...store(LO, HI, 0),
  ...store(LO_NEXT, HI_NEXT, 4),
  ...[...get(NEXT), ...set(ROW)],
  ...addTo(OUT, 8),
  ...[...get(ROWS), 0x41, 2, 0x6b, ...set(ROWS)],
  ...[0x0c, 0, 0x0b, 0x0b, 0x0b] // next rows; end loop, block, function
]
const locals = [2, 3, I32, 7, V128]
const newKernel = wasmKernel('scores', [...locals, ...body])

/** A kernel for rows of `dimension` floats, or null when it cannot serve them (no SIMD, or a width not a multiple of 4). */
export function createDotKernel(dimension: number, capacity: number): DotKernel | null {
  const kernel = dimension > 0 && dimension % 4 === 0 ? newKernel() : null
  if (!kernel) return null
  const { memory, run } = kernel
  let rowsRoom = 0
  let floats = new Float32Array(0)
  const reserve = (rows: number) => {
    if (rows <= rowsRoom) return
    // The rows, then the query, then a score per row and one more (an odd count scores one row past
    // the last: the next row's room, or the query, both inside the memory).
    const bytes = (rows * dimension + dimension + rows + 1) * 4
    kernel.reserveBytes(bytes)
    rowsRoom = rows
    floats = new Float32Array(memory.buffer, 0, rows * dimension)
  }
  reserve(capacity)
  return {
    get floats() {
      return floats
    },
    reserve,
    scores(query, rows) {
      const queryAt = rowsRoom * dimension * 4
      const outAt = queryAt + dimension * 4
      new Float32Array(memory.buffer, queryAt, dimension).set(query)
      run(0, queryAt, rows, dimension, outAt)
      return new Float32Array(memory.buffer, outAt, rows)
    }
  }
}
