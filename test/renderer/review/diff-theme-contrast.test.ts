import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DARK_THEME, LIGHT_THEME, REJECTED_LINE_BACKGROUND, THEMES } from '../../../src/renderer/src/monaco/themes'
import { contrast, over, parseHex as parse } from '../../support/contrast'

// The axe scan sees only the tokens of its sample file; this checks every token colour of both diff
// themes against every background a line can have in a review (WCAG 2 contrast, 4.5:1 for text).

describe('the review diff themes', () => {
  for (const name of [LIGHT_THEME, DARK_THEME]) {
    it(`keeps every token of ${name} at 4.5:1 or more on inserted, removed and rejected lines`, () => {
      const theme = THEMES[name]
      const colors = theme.colors
      const editor = parse(colors['editor.background']).rgb
      const backgrounds = [
        [],
        [colors['diffEditor.insertedLineBackground'], colors['diffEditor.insertedTextBackground']],
        [colors['diffEditor.removedLineBackground'], colors['diffEditor.removedTextBackground']],
        [
          colors['diffEditor.insertedLineBackground'],
          colors['diffEditor.insertedTextBackground'],
          REJECTED_LINE_BACKGROUND
        ]
      ].map((layers) => layers.reduce(over, editor))
      const tooFaint = theme.rules.flatMap((rule) =>
        backgrounds
          .map((background) => contrast(parse(`#${rule.foreground}`).rgb, background))
          .filter((ratio) => ratio < 4.5)
          .map((ratio) => `${rule.token || '(default)'} #${rule.foreground}: ${ratio.toFixed(2)}:1`)
      )
      expect(tooFaint).toEqual([])
      expect(theme.rules.length).toBeGreaterThan(10)
    })
  }

  it('draws the rejected-hunk marking in the colour the contrast was checked with', () => {
    const css = readFileSync(join(__dirname, '../../../src/renderer/src/common/review/review.css'), 'utf8')
    expect(css).toMatch(new RegExp(`\\.hunk-rejected-line \\{ background: ${REJECTED_LINE_BACKGROUND};`))
  })
})
