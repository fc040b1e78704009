import { describe, expect, it } from 'vitest'
import { chunkBySize, chunkFile, isMinified } from '../../../src/main/core/code-index/chunker'
import { fuseRankings } from '../../../src/main/core/code-index/hybrid'
import { languageFor } from '../../../src/main/core/code-index/languages'
import { createCodeParser } from '../../../src/main/core/code-index/parser'
import { termsColumn } from '../../../src/main/core/code-index/terms-column'
import { tokenize } from '../../../src/main/core/code-index/tokenize'

const parser = createCodeParser()
const limits = { maxChars: 400, minChars: 120, linesPerChunk: 10 }

const method = (name: string, lines: number) =>
  [
    `  ${name}() {`,
    ...Array.from({ length: lines }, (_, i) => `    const value${i} = compute('${name}', ${i})`),
    '  }'
  ].join('\n')

describe('chunking', () => {
  it('splits a class too large for one chunk at its methods, merging small neighbours into them', async () => {
    const text = [
      "import { compute } from './compute'",
      '',
      'export class Big {',
      method('first', 8),
      '',
      method('second', 8),
      '}',
      '',
      'const a = () => 1',
      'const b = () => 2',
      ''
    ].join('\n')
    const definitions = await parser.definitions(text, languageFor('a.ts')!)
    const chunks = chunkFile('a.ts', text, definitions, limits)
    const ranges = chunks.map((c) => `${c.startLine}-${c.endLine}`)
    // The class (lines 3-25) is too large: the import and the class header (small) join the first method;
    // the second method takes the closing brace and the two small arrow functions after it.
    expect(ranges).toEqual(['1-13', '15-28'])
    for (const chunk of chunks)
      expect(chunk.text).toBe(
        text
          .split('\n')
          .slice(chunk.startLine - 1, chunk.endLine)
          .join('\n')
      )
  })

  it('splits a definition with nothing inside it by lines, never cutting a line', async () => {
    const body = Array.from({ length: 30 }, (_, i) => `  total += item${i} * weight${i} + offset`).join('\n')
    const text = `function huge() {\n  let total = 0\n${body}\n  return total\n}\n`
    const chunks = chunkFile('h.js', text, await parser.definitions(text, languageFor('h.js')!), limits)
    expect(chunks.length).toBeGreaterThan(2)
    expect(chunks[0].startLine).toBe(1)
    expect(chunks[chunks.length - 1].endLine).toBe(34)
    for (let i = 1; i < chunks.length; i++) expect(chunks[i].startLine).toBe(chunks[i - 1].endLine + 1)
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(limits.maxChars)
  })

  it('chunks a file without a grammar by lines and skips a blank file', () => {
    const text = Array.from({ length: 25 }, (_, i) => `line ${i + 1}: words to fill it up`).join('\n')
    expect(chunkFile('notes.txt', text, null, limits).map((c) => `${c.startLine}-${c.endLine}`)).toEqual([
      '1-10',
      '11-20',
      '21-25'
    ])
    expect(chunkFile('blank.txt', '\n\n  \n', null, limits)).toEqual([])
  })
})

describe('terms and fusion', () => {
  it('splits identifiers so words find camelCase and snake_case names', () => {
    expect(tokenize('parseSourceFile(MAX_RESULTS)')).toEqual([
      'parsesourcefile',
      'parse',
      'source',
      'file',
      'max_results',
      'max',
      'results'
    ])
  })

  it('stores the terms a query is tokenized into, for every kind of name', () => {
    const cases: Array<[string, string]> = [
      [
        'HTTPServer HTTP2Server URLs x9Y __proto__ a$B',
        'httpserver http server http2server http server urls ur ls x9y __proto__ a$b'
      ],
      // Only ASCII letters, digits, `_` and `$` make names.
      ['café naïveCase ÀBc', 'caf na vecase ve case bc'],
      ['  \n\t ', ''],
      // Names over 48 characters are no terms.
      [`${'x'.repeat(48)} ${'y'.repeat(49)} aaaaBBBBccccDDDD`, `${'x'.repeat(48)} aaaabbbbccccdddd aaaa bbb bcccc dddd`]
    ]
    const column = termsColumn(cases.map(([text]) => text))
    const stored = cases.map((_, i) =>
      Buffer.from(column.bytes.subarray(column.offsets[i], column.offsets[i + 1])).toString('utf8')
    )
    expect(stored).toEqual(cases.map(([, terms]) => terms))
    expect(cases.map(([text]) => tokenize(text).join(' '))).toEqual(stored)
  })

  it('fuses both rankings: a chunk high in both beats one high in only one', () => {
    const fused = fuseRankings(
      [
        { id: 'x', score: 9 },
        { id: 'y', score: 8 }
      ],
      [
        { id: 'y', similarity: 0.9 },
        { id: 'z', similarity: 0.8 }
      ]
    )
    expect(fused.map((h) => h.id)).toEqual(['y', 'x', 'z'])
    expect(fused[0]).toMatchObject({ lexicalRank: 2, similarity: 0.9 })
    expect(fused[0].score).toBeLessThanOrEqual(1)
  })
})

describe('minified code', () => {
  const bundle = `${Array.from({ length: 800 }, (_, i) => `var longName${i}=f(${i})`).join(';')}\nvar tail=1\n`

  it('is told from hand-written code by how much of it sits in very long lines', () => {
    expect(isMinified(bundle)).toBe(true)
    const handWritten = `${'const value = compute(1)\n'.repeat(200)}const table = '${'x'.repeat(1200)}'\n`
    expect(isMinified(handWritten)).toBe(false)
  })

  it('is cut into windows that cover every character, never inside a name, with the lines they span', () => {
    const chunks = chunkBySize('dist/a.min.js', bundle, 500)
    expect(chunks.length).toBeGreaterThan(30)
    expect(chunks.every((c) => c.text.length <= 500)).toBe(true)
    // Every name of the file is in exactly one chunk, whole: a name cut in two would be two other words.
    const words = (text: string) => text.match(/[A-Za-z0-9_$]+/g) ?? []
    const inChunks = chunks.flatMap((c) => words(c.text))
    expect(inChunks.length).toBe(words(bundle).length)
    expect(inChunks.join(' ') === words(bundle).join(' ')).toBe(true)
    expect(chunks.slice(0, -1).every((c) => c.startLine === 1 && c.endLine === 1)).toBe(true)
    expect(chunks[chunks.length - 1]).toMatchObject({ endLine: 2 })
    expect(chunks[chunks.length - 1].text.endsWith('var tail=1')).toBe(true)
  })
})
