import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DARK_THEME, LIGHT_THEME, REJECTED_LINE_BACKGROUND, THEMES } from '../../../src/renderer/src/monaco/themes'

// The axe scan sees only the tokens of its sample file; this checks every token colour of both diff
// themes against every background a line can have in a review (WCAG 2 contrast, 4.5:1 for text).

type Rgb = [number, number, number]

const parse = (hex: string): { rgb: Rgb; alpha: number } => {
  const digits = hex.replace('#', '')
  const rgb = [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16)) as Rgb
  return { rgb, alpha: digits.length === 8 ? parseInt(digits.slice(6), 16) / 255 : 1 }
}

const over = (base: Rgb, layer: string): Rgb => {
  const { rgb, alpha } = parse(layer)
  return base.map((channel, i) => rgb[i] * alpha + channel * (1 - alpha)) as Rgb
}

const luminance = (rgb: Rgb): number => {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

const contrast = (a: Rgb, b: Rgb): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light + 0.05) / (dark + 0.05)
}

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
        [colors['diffEditor.insertedLineBackground'], colors['diffEditor.insertedTextBackground'], REJECTED_LINE_BACKGROUND]
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
    const css = readFileSync(join(__dirname, '../../../src/renderer/src/features/review/review.css'), 'utf8')
    expect(css).toMatch(new RegExp(`\\.hunk-rejected-line \\{ background: ${REJECTED_LINE_BACKGROUND};`))
  })
})
