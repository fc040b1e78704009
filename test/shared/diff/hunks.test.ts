import { describe, expect, it } from 'vitest'
import {
  applySelectedHunks,
  computeHunks,
  displayCounts,
  displayRows,
  invertHunks,
  rebaseHunks,
  unifiedDiff
} from '../../../src/shared/diff'

const file = (n: number, edit: (i: number) => string | null = (i) => `line ${i}`): string =>
  Array.from({ length: n }, (_, k) => edit(k + 1))
    .filter((l) => l !== null)
    .join('\n') + '\n'

describe('review hunks', () => {
  const original = file(40)
  const proposed = file(40, (i) => (i === 5 ? 'FIVE' : i === 30 ? 'THIRTY' : `line ${i}`))

  it('splits distant changes into separate hunks with context', () => {
    const hunks = computeHunks(original, proposed)
    expect(hunks.map((h) => h.id)).toEqual(['h1', 'h2'])
    expect(hunks[0]).toMatchObject({ oldStart: 2, oldLines: 7, newStart: 2, newLines: 7 })
    expect(hunks[0].lines).toContain('-line 5')
    expect(hunks[0].lines).toContain('+FIVE')
  })

  it('applies only the selected hunks', () => {
    const hunks = computeHunks(original, proposed)
    expect(applySelectedHunks(original, hunks, new Set(['h2']))).toBe(
      file(40, (i) => (i === 30 ? 'THIRTY' : `line ${i}`))
    )
    expect(applySelectedHunks(original, hunks, new Set(['h1', 'h2']))).toBe(proposed)
    expect(applySelectedHunks(original, hunks, new Set())).toBe(original)
  })

  it('re-applies hunks onto a file that changed elsewhere, and reports conflicts where it changed underneath', () => {
    const hunks = computeHunks(original, proposed)
    const movedDown = 'new first line\n' + original
    expect(rebaseHunks(movedDown, hunks)).toEqual({ ok: true, content: 'new first line\n' + proposed })
    const touched = original.replace('line 30\n', 'line 30 (edited by user)\n')
    expect(rebaseHunks(touched, hunks)).toEqual({ ok: false, conflicts: ['h2'] })
  })

  it('inverts hunks to undo a change', () => {
    const hunks = computeHunks(original, proposed)
    expect(rebaseHunks(proposed, invertHunks(hunks))).toEqual({ ok: true, content: original })
  })

  it('handles creation (empty original) and deletion of all content', () => {
    expect(computeHunks('', 'a\nb\n')[0]).toMatchObject({ oldStart: 0, oldLines: 0, newStart: 1 })
    const gone = computeHunks('a\nb\n', '')
    expect(applySelectedHunks('a\nb\n', gone, new Set(['h1']))).toBe('')
  })

  it('shows a created or emptied file without a phantom row for its final newline, and still writes the newline', () => {
    const created = computeHunks('', 'a\nb\n')
    expect(displayRows(created[0])).toEqual(['+a', '+b'])
    expect(displayCounts(created[0])).toEqual({ oldLines: 0, newLines: 2 })
    expect(applySelectedHunks('', created, new Set(['h1']))).toBe('a\nb\n')
    expect(displayRows(computeHunks('a\nb\n', '')[0])).toEqual(['-a', '-b'])
    expect(displayRows(computeHunks('', 'a\n\n')[0])).toEqual(['+a', '+'])
    expect(displayRows(computeHunks('', 'a')[0])).toEqual(['+a'])
    const modified = computeHunks('a\nb\n', 'a\nc\n')[0]
    expect(displayRows(modified)).toEqual(modified.lines)
  })

  it('writes a unified diff', () => {
    const text = unifiedDiff('src/x.ts', 'a\nb\n', 'a\nB\n')
    expect(text).toContain('--- a/src/x.ts')
    expect(text).toContain('+++ b/src/x.ts')
    expect(text).toContain('-b\n+B')
  })
})
