import { describe, expect, it } from 'vitest'
import { applySelectedHunks, computeHunks, hunksReachingDisk, rebaseHunks } from '../../../src/shared/diff/hunks'

const file = (n: number, edit: (i: number) => string = (i) => `line ${i}`): string =>
  Array.from({ length: n }, (_, k) => edit(k + 1)).join('\n') + '\n'

describe('one hunk per run of changed lines', () => {
  const original = file(20)
  // Two model blocks one unchanged line apart (lines 5 and 7), and one far away (line 15).
  const proposed = file(20, (i) => (i === 5 ? 'FIVE' : i === 7 ? 'SEVEN' : i === 15 ? 'FIFTEEN' : `line ${i}`))

  it('keeps changes one line apart as two hunks, each with its share of the context', () => {
    const hunks = computeHunks(original, proposed)
    expect(hunks.map((hunk) => hunk.lines.filter((line) => line[0] !== ' '))).toEqual([
      ['-line 5', '+FIVE'],
      ['-line 7', '+SEVEN'],
      ['-line 15', '+FIFTEEN']
    ])
    // The shared line 6 goes to the first hunk only: hunks never overlap.
    expect(hunks[0]).toMatchObject({ oldStart: 2, oldLines: 5 })
    expect(hunks[1]).toMatchObject({ oldStart: 7, oldLines: 4 })
    expect(hunks[2]).toMatchObject({ oldStart: 12, oldLines: 7 })
  })

  it('applies each of two adjacent hunks on its own', () => {
    const hunks = computeHunks(original, proposed)
    expect(applySelectedHunks(original, hunks, new Set(['h2']))).toBe(
      file(20, (i) => (i === 7 ? 'SEVEN' : `line ${i}`)).replace(/\n$/, '\n')
    )
    expect(applySelectedHunks(original, hunks, new Set(['h1', 'h3']))).toBe(
      file(20, (i) => (i === 5 ? 'FIVE' : i === 15 ? 'FIFTEEN' : `line ${i}`))
    )
    expect(applySelectedHunks(original, hunks, new Set(['h1', 'h2', 'h3']))).toBe(proposed)
  })

  it('re-applies split hunks onto a file that moved', () => {
    const hunks = computeHunks(original, proposed)
    expect(rebaseHunks('top\n' + original, hunks)).toEqual({ ok: true, content: 'top\n' + proposed })
  })

  it('splits changes with no context at all between them only where a line is unchanged', () => {
    const hunks = computeHunks('a\nb\nc\n', 'A\nb\nC\n')
    expect(hunks).toHaveLength(2)
    expect(applySelectedHunks('a\nb\nc\n', hunks, new Set(['h2']))).toBe('a\nb\nC\n')
  })
})

describe('hunks that reached the disk', () => {
  const original = file(30)
  const proposed = file(30, (i) => (i === 3 ? 'THREE' : i === 15 ? 'FIFTEEN' : i === 27 ? 'TWENTY-SEVEN' : `line ${i}`))
  const hunks = computeHunks(original, proposed)

  it('counts every hunk when the proposal was written as is', () => {
    expect(hunksReachingDisk(original, hunks, proposed)).toEqual(['h1', 'h2', 'h3'])
  })

  it('leaves out a rejected hunk, and counts an edited one as written', () => {
    const written = file(30, (i) => (i === 3 ? 'THREE, edited' : i === 27 ? 'TWENTY-SEVEN' : `line ${i}`))
    expect(hunksReachingDisk(original, hunks, written)).toEqual(['h1', 'h3'])
  })

  it('counts an insertion only where the written file inserts there too', () => {
    const inserted = computeHunks('a\nb\n', 'a\nnew\nb\n')
    expect(hunksReachingDisk('a\nb\n', inserted, 'a\nnew\nb\n')).toEqual(['h1'])
    expect(hunksReachingDisk('a\nb\n', inserted, 'a\nb\n')).toEqual([])
  })
})
