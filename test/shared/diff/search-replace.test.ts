import { describe, expect, it } from 'vitest'
import { applySearchReplace, parseSearchReplace } from '../../../src/shared/diff'

const block = (search: string, replace: string, hint?: number): string =>
  `<<<<<<< SEARCH\n${hint ? `:start_line:${hint}\n-------\n` : ''}${search}\n=======\n${replace}\n>>>>>>> REPLACE`

/** A file of n distinct lines: `line 1` … `line n`. */
const numberedFile = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

describe('applySearchReplace', () => {
  it('finds a block whose :start_line: hint is hundreds of lines off', () => {
    const original = numberedFile(2000)
    const result = applySearchReplace(original, block('line 1500\nline 1501', 'changed 1500\nline 1501', 1200))
    expect(result.failed).toBe(0)
    expect(result.blocks[0]).toMatchObject({ status: 'applied', startLine: 1500, hint: 1200 })
    expect(result.content).toContain('line 1499\nchanged 1500\nline 1501\n')
  })

  it('picks the occurrence nearest to the hint when the search text repeats', () => {
    const original = 'a\nx = 1\nb\nc\nd\nx = 1\ne\n'
    const result = applySearchReplace(original, block('x = 1', 'x = 2', 5))
    expect(result.content).toBe('a\nx = 1\nb\nc\nd\nx = 2\ne\n')
  })

  it('refuses to guess between equal matches when there is no hint, naming their lines', () => {
    const result = applySearchReplace('x = 1\ny\nx = 1\n', block('x = 1', 'x = 2'))
    expect(result.applied).toBe(0)
    const failed = result.blocks[0]
    expect(failed.status).toBe('failed')
    expect(failed.status === 'failed' && failed.error).toMatch(/matches 2 places \(lines 1-1, 3-3\)/)
  })

  it('tolerates typographic quotes, trailing whitespace and different indentation in SEARCH', () => {
    const original = 'function f() {\n    say("it\u2019s here")   \n}\n'
    const result = applySearchReplace(
      original,
      block('function f() {\nsay("it\'s here")\n}', 'function f() {\n    say("done")\n}')
    )
    expect(result.failed).toBe(0)
    expect(result.content).toBe('function f() {\n    say("done")\n}\n')
  })

  it('re-indents a block written with 4-space indentation into a 2-space file, nested lines included', () => {
    const original = 'class A {\n  run() {\n    go()\n  }\n}\n'
    const diff = block(
      '    run() {\n        go()\n    }',
      '    run() {\n        if (ok) {\n            go()\n        }\n    }'
    )
    const result = applySearchReplace(original, diff)
    expect(result.content).toBe('class A {\n  run() {\n    if (ok) {\n      go()\n    }\n  }\n}\n')
    expect(result.blocks[0]).toMatchObject({ reindented: true })
  })

  it('applies the blocks that match, reports each failed block with its closest candidate', () => {
    const original = numberedFile(50)
    const diff = [
      block('line 10', 'ten'),
      block('line 20\nline 21 typo\nline 22', 'x'),
      block('line 30', 'thirty')
    ].join('\n')
    const result = applySearchReplace(original, diff)
    expect(result.applied).toBe(2)
    expect(result.failed).toBe(1)
    const failed = result.blocks[1]
    expect(failed.status).toBe('failed')
    if (failed.status !== 'failed') return
    expect(failed.closest).toMatchObject({ startLine: 20, endLine: 22 })
    expect(failed.closest!.similarity).toBeGreaterThan(0.8)
    expect(failed.error).toContain('20 | line 20')
    expect(result.content).toContain('\nten\n')
    expect(result.content).toContain('\nthirty\n')
  })

  it('keeps CRLF line endings', () => {
    const result = applySearchReplace('a\r\nb\r\nc\r\n', block('b', 'B\nB2'))
    expect(result.content).toBe('a\r\nB\r\nB2\r\nc\r\n')
  })

  it('shifts later hints by the lines earlier blocks added', () => {
    const original = numberedFile(30)
    const diff = [block('line 5', 'five\nfive b\nfive c', 5), block('line 20', 'twenty', 20)].join('\n')
    const result = applySearchReplace(original, diff)
    expect(result.blocks[1]).toMatchObject({ status: 'applied', startLine: 22 })
  })

  it('rejects identical SEARCH and REPLACE and empty SEARCH per block', () => {
    const result = applySearchReplace('a\n', [block('a', 'a'), block('', 'b')].join('\n'))
    expect(result.blocks.map((b) => b.status)).toEqual(['failed', 'failed'])
  })
})

describe('parseSearchReplace', () => {
  it('reads hints, unescapes markers and strips read_file line numbers', () => {
    const parsed = parseSearchReplace(
      '<<<<<<< SEARCH\n:start_line:7\n:end_line:8\n-------\n7 | alpha\n8 | \\=======\n=======\nbeta\n\\>>>>>>> REPLACE\n>>>>>>> REPLACE'
    )
    expect(parsed).toEqual({
      ok: true,
      blocks: [
        { index: 0, startLine: 7, endLine: 8, search: ['alpha', '======='], replace: ['beta', '>>>>>>> REPLACE'] }
      ]
    })
  })

  it('names the line and the expected marker when markers are out of order', () => {
    const parsed = parseSearchReplace('<<<<<<< SEARCH\na\n>>>>>>> REPLACE')
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.error).toMatch(/line 3\. Expected: '======='/)
  })
})
