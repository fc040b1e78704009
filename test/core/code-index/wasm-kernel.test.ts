import { describe, expect, it } from 'vitest'
import { createInt8Rows, ROUNDING_MARGIN } from '../../../src/main/core/code-index/int8-dot'
import { createDotKernel } from '../../../src/main/core/code-index/simd-dot'

// The scan falls back to JavaScript where WebAssembly SIMD is missing, so its other tests would pass
// without the kernels: these check that both compile here and compute what they claim.
describe('the scan kernels', () => {
  it('the float kernel compiles and gives each row its dot product with the query', () => {
    const kernel = createDotKernel(4, 2)
    expect(kernel).not.toBeNull()
    kernel!.floats.set([1, 2, 3, 4, 0.5, 0, 0, -1])
    expect([...kernel!.scores(new Float32Array([1, 1, 1, 1]), 2)]).toEqual([10, -0.5])
  })

  it('the int8 kernel compiles and its scores are within their bound of the exact ones', () => {
    const rows = createInt8Rows(8, 2)
    expect(rows).not.toBeNull()
    const norm = (values: number[]) => {
      const length = Math.hypot(...values)
      return new Float32Array(values.map((v) => v / length))
    }
    const stored = [norm([1, 2, 3, 4, 5, 6, 7, 8]), norm([-3, 0.5, 0, 2, -1, 0.25, 9, -4])]
    stored.forEach((values, row) => rows!.set(row, values, 0))
    const query = norm([0.3, -1, 2, 0, 1, 1, -0.5, 4])
    const { dots, query: rounded } = rows!.dots(query, 2)
    stored.forEach((values, row) => {
      const exact = values.reduce((sum, v, i) => sum + v * query[i], 0)
      const approximate = dots[row] * rows!.scales[row] * rounded.scale
      const bound = rows!.errorNorms[row] * rounded.norm + rows!.roundedNorms[row] * rounded.errorNorm + ROUNDING_MARGIN
      expect(dots[row]).not.toBe(0)
      expect(Math.abs(approximate - exact)).toBeLessThanOrEqual(bound)
    })
  })
})
