import { describe, expect, it } from 'vitest'
import { levenshtein, levenshteinWithin } from '../../../src/shared/diff/levenshtein'

/** The textbook full table, as the reference. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0][j] = j
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
  return d[a.length][b.length]
}

describe('edit distance', () => {
  it('bounded: exact at or under the limit, above it otherwise (random strings, every limit)', () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const word = () =>
      Array.from({ length: Math.floor(random() * 14) }, () => 'abc \n'[Math.floor(random() * 5)]).join('')
    for (let n = 0; n < 400; n++) {
      const a = word()
      const b = random() < 0.5 ? word() : a.slice(0, Math.floor(random() * a.length)) + word()
      const exact = reference(a, b)
      expect(levenshtein(a, b)).toBe(exact)
      for (let limit = 0; limit <= 16; limit++) {
        const bounded = levenshteinWithin(a, b, limit)
        if (exact <= limit) expect(bounded).toBe(exact)
        else expect(bounded).toBeGreaterThan(limit)
      }
    }
  })
})
