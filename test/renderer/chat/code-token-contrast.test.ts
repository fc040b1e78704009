import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TokenKind } from '../../../src/renderer/src/features/chat/markdown/highlight'
import { contrast, parseHex } from '../../support/contrast'

// The axe scan sees the tokens of its sample messages; this checks every token colour of chat code
// blocks (markdown.css) in both themes against the block's background (WCAG 2, 4.5:1 for text).

const RENDERER = join(__dirname, '../../../src/renderer/src')
const markdownCss = readFileSync(join(RENDERER, 'features/chat/markdown/markdown.css'), 'utf8')
const themeCss = readFileSync(join(RENDERER, 'common/settings/theme.css'), 'utf8')
const COLOURED: Exclude<TokenKind, 'plain'>[] = ['comment', 'string', 'number', 'keyword', 'literal']

type Scheme = 'light' | 'dark' | 'system dark'
const schemeOf = (selector: string): Scheme | null => {
  if (selector.startsWith(":root[data-theme='dark']")) return 'dark'
  if (selector.startsWith(":root:not([data-theme='light'])")) return 'system dark'
  return selector.startsWith('.tok-') ? 'light' : null
}

/** Token kind → colour, per scheme, from the innermost `selector { … }` rules of markdown.css. */
function tokenColours(): Record<Scheme, Record<string, string>> {
  const colours: Record<Scheme, Record<string, string>> = { light: {}, dark: {}, 'system dark': {} }
  for (const [, selectors, body] of markdownCss.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const colour = /(?:^|;)\s*color:\s*(#[0-9a-f]{6})/i.exec(body)?.[1]
    for (const selector of selectors.split(',').map((part) => part.trim())) {
      const kind = /\.tok-(\w+)$/.exec(selector)?.[1]
      const scheme = schemeOf(selector)
      if (kind && scheme && colour) colours[scheme][kind] = colour
    }
  }
  return colours
}

const background = (theme: 'light' | 'dark'): string => {
  const block = new RegExp(`:root\\[data-theme='${theme}'\\] \\{([^}]*)\\}`).exec(themeCss)![1]
  return /--bg:\s*(#[0-9a-f]{6})/i.exec(block)![1]
}

describe('chat code block colours', () => {
  const colours = tokenColours()

  it('draw code blocks on the page background the colours are checked against', () => {
    expect(markdownCss).toMatch(/\.md-code \{[^}]*background: var\(--bg\);/)
  })

  for (const theme of ['light', 'dark'] as const) {
    it(`keep every token kind at 4.5:1 or more in the ${theme} theme`, () => {
      const bg = parseHex(background(theme)).rgb
      const ratios = COLOURED.map((kind) => {
        const colour = colours[theme][kind]
        return `${kind} ${colour}: ${colour ? contrast(parseHex(colour).rgb, bg).toFixed(2) : 'no colour'}`
      })
      const tooFaint = ratios.filter((line) => !(Number(line.split(': ')[1]) >= 4.5))
      expect(tooFaint).toEqual([])
    })
  }

  it('use the same dark colours whether dark is chosen or follows the system', () => {
    expect(colours['system dark']).toEqual(colours.dark)
    expect(Object.keys(colours.dark).sort()).toEqual([...COLOURED].sort())
  })
})
