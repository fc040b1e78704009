import { describe, expect, it } from 'vitest'
import { applySearchReplace, matchKey, rankWindows, seekSequence } from '../../../src/shared/diff'
import { LineIndex, probeOf } from '../../../src/shared/diff/line-index'

describe('LineIndex', () => {
  const lines = ['alpha beta', 'gamma', '  beta beta', 'délta beta', '', 'beta']
  const index = LineIndex.of(lines)

  it('lists each line holding a substring once, in order, from a given line', () => {
    expect(index.linesHolding('beta')).toEqual([0, 2, 3, 5])
    expect(index.linesHolding('beta', 3)).toEqual([3, 5])
    expect(index.linesHolding('nowhere')).toEqual([])
    expect(index.nonAsciiLines()).toEqual([3])
  })

  it('probes a key by its longest whitespace-free run, never a non-ASCII key', () => {
    expect(probeOf('const value = computeIt(a, b)')).toBe('computeIt(a,')
    expect(probeOf('“quoted”')).toBeNull()
  })
})

// The seek and the ranking look only at lines holding a run of the key (ASCII) and at non-ASCII
// lines: these cases need the non-ASCII lines and the looser views to be found at all.
describe('index-driven searches find what keying every line finds', () => {
  it('seeks through typographic punctuation, no-break spaces and inner whitespace runs', () => {
    const file = ['function a() {', '  log(“hello”)', '  x  =   1', '\u00a0 y = 2', '}']
    expect(seekSequence(file, ['  log("hello")'], 0, false)).toBe(1)
    expect(seekSequence(file, ['x = 1'], 0, false)).toBe(2)
    expect(seekSequence(file, ['y = 2'], 0, false)).toBe(3)
    expect(seekSequence(file, ['\tx = 1', 'y = 2'], 0, false)).toBe(2)
  })

  it('votes for windows whose lines differ from the search only by their key', () => {
    const file = Array.from({ length: 400 }, (_, i) => `  filler(${i})`)
    file.splice(200, 3, '  const “a” = 1', '  if (a  >  0) {', '  }')
    const keys = ['const "a" = 1', 'if (a > 0) {', 'return a', '}']
    const ranked = rankWindows(LineIndex.of(file), keys)
    expect(ranked[0].at).toBe(200)
    // The same ranking as a search over keys made for every line (a file small enough to score whole).
    const small = file.slice(195, 210)
    expect(rankWindows(LineIndex.of(small), keys)[0]).toEqual({ at: 5, similarity: ranked[0].similarity })
    expect(keys[0]).toBe(matchKey(file[200]))
  })

  it('names the closest candidate in a large file when nothing matches', () => {
    const file = Array.from({ length: 30_000 }, (_, i) => `    step${i}(value${i % 97})`)
    file[21_000] = '    finalStep(“résumé”, total)'
    const diff = [
      '<<<<<<< SEARCH',
      '    finalStep("résumé", totals)',
      '=======',
      '    finalStep("résumé", total + 1)',
      '>>>>>>> REPLACE'
    ].join('\n')
    const result = applySearchReplace(file.join('\n'), diff)
    const failed = result.blocks[0]
    expect(failed.status).toBe('failed')
    expect(failed.status === 'failed' && failed.closest?.startLine).toBe(21_001)
  })
})
