import { describe, expect, it } from 'vitest'
import { highlight } from '../../../src/renderer/src/features/chat/markdown/highlight'
import {
  inlineText,
  parseInline,
  parseMarkdown,
  safeHref
} from '../../../src/renderer/src/features/chat/markdown/parse-markdown'

describe('parseMarkdown', () => {
  it('parses headings, paragraphs, fenced code, lists, quotes, rules and tables', () => {
    const blocks = parseMarkdown(
      [
        '# Plan',
        'Some *emphasis* and **bold** with `code`.',
        '',
        '```ts',
        'const a = 1',
        '```',
        '- one',
        '- two',
        '  - nested',
        '1. first',
        '2. second',
        '> quoted',
        '---',
        '| a | b |',
        '|---|--:|',
        '| 1 | 2 |'
      ].join('\n')
    )
    expect(blocks.map((block) => block.type)).toEqual([
      'heading',
      'paragraph',
      'code',
      'list',
      'list',
      'quote',
      'hr',
      'table'
    ])
    expect(blocks[2]).toEqual({ type: 'code', lang: 'ts', text: 'const a = 1', closed: true })
    const bullets = blocks[3] as Extract<(typeof blocks)[number], { type: 'list' }>
    expect(bullets.items).toHaveLength(2)
    expect(bullets.items[1].map((block) => block.type)).toEqual(['paragraph', 'list'])
    const table = blocks[7] as Extract<(typeof blocks)[number], { type: 'table' }>
    expect(table.align).toEqual([null, 'right'])
    expect(table.rows.map((row) => row.map(inlineText))).toEqual([['1', '2']])
  })

  it('keeps an unclosed fence (a reply still streaming) as code to the end', () => {
    expect(parseMarkdown('Look:\n```py\nprint(1)\nprint(2')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'Look:' }] },
      { type: 'code', lang: 'py', text: 'print(1)\nprint(2', closed: false }
    ])
  })

  it('treats HTML as text', () => {
    const blocks = parseMarkdown('<img src=x onerror=alert(1)> <script>alert(1)</script>')
    expect(blocks).toEqual([
      {
        type: 'paragraph',
        children: [{ type: 'text', text: '<img src=x onerror=alert(1)> <script>alert(1)</script>' }]
      }
    ])
  })

  it('links only http, https and mailto targets', () => {
    expect(parseInline('[docs](https://example.com/a_(b))')).toEqual([
      { type: 'link', href: 'https://example.com/a_(b)', children: [{ type: 'text', text: 'docs' }] }
    ])
    expect(parseInline('[click](javascript:alert(1))')[0]).toEqual({
      type: 'em',
      children: [{ type: 'text', text: 'click' }]
    })
    expect(safeHref('data:text/html,x')).toBeNull()
    expect(parseInline('<https://a.b/c>')[0]).toMatchObject({ type: 'link', href: 'https://a.b/c' })
  })

  it('links bare web addresses without the sentence punctuation after them', () => {
    expect(parseInline('See https://example.com/docs. Or (http://a.b/c_(d)) now')).toEqual([
      { type: 'text', text: 'See ' },
      {
        type: 'link',
        href: 'https://example.com/docs',
        children: [{ type: 'text', text: 'https://example.com/docs' }]
      },
      { type: 'text', text: '. Or (' },
      { type: 'link', href: 'http://a.b/c_(d)', children: [{ type: 'text', text: 'http://a.b/c_(d)' }] },
      { type: 'text', text: ') now' }
    ])
    expect(parseInline('xhttps://no.link')).toEqual([{ type: 'text', text: 'xhttps://no.link' }])
  })

  it('leaves snake_case, lone asterisks and escapes alone', () => {
    expect(inlineText(parseInline('call read_file_now and 2 * 3 = 6, \\*not em\\*'))).toBe(
      'call read_file_now and 2 * 3 = 6, *not em*'
    )
    expect(parseInline('a_b_c')).toEqual([{ type: 'text', text: 'a_b_c' }])
  })

  it('nests emphasis and code inside links and bold', () => {
    expect(parseInline('**bold `x` and *it***')).toEqual([
      {
        type: 'strong',
        children: [
          { type: 'text', text: 'bold ' },
          { type: 'code', text: 'x' },
          { type: 'text', text: ' and ' },
          { type: 'em', children: [{ type: 'text', text: 'it' }] }
        ]
      }
    ])
  })
})

describe('highlight', () => {
  it('gives tokens that join back to the code', () => {
    const code = 'const x = "a // b" // note\nreturn 42 /* c */'
    const tokens = highlight(code, 'ts')
    expect(tokens.map((t) => t.text).join('')).toBe(code)
    expect(tokens.filter((t) => t.kind === 'keyword').map((t) => t.text)).toEqual(['const', 'return'])
    expect(tokens.filter((t) => t.kind === 'string').map((t) => t.text)).toEqual(['"a // b"'])
    expect(tokens.filter((t) => t.kind === 'comment').map((t) => t.text)).toEqual(['// note', '/* c */'])
    expect(tokens.filter((t) => t.kind === 'number').map((t) => t.text)).toEqual(['42'])
  })

  it('colours python and shell, and leaves unknown languages plain', () => {
    expect(
      highlight('def f(): # hi', 'python')
        .filter((t) => t.kind !== 'plain')
        .map((t) => t.kind)
    ).toEqual(['keyword', 'comment'])
    expect(highlight('echo "$HOME"', 'bash').map((t) => t.kind)).toContain('string')
    expect(highlight('anything at all', 'brainfuck')).toEqual([{ kind: 'plain', text: 'anything at all' }])
  })
})
