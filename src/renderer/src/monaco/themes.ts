import type { editor } from 'monaco-editor/editor'

/**
 * The diff editor's themes. Monaco's own `vs` / `vs-dark` token colours fall to 2–4:1 on its diff
 * highlights (comments at 1.9:1 on an inserted word in the dark theme). These replace every token
 * colour (`inherit: false`; a rule also covers its sub-tokens, `keyword` → `keyword.flow.scss`) with
 * one that keeps 4.5:1 on the strongest background a line can have here: an inserted or removed word
 * on an inserted or removed line, under the rejected-hunk marking (`.hunk-rejected-line`).
 */
export const LIGHT_THEME = 'modus-light'
export const DARK_THEME = 'modus-dark'

type Palette = Record<string, string>

const LIGHT_TOKENS: Palette = {
  '': '1f2328',
  comment: '2a6318',
  keyword: '0000ff',
  'keyword.flow': '8a00ad',
  string: 'a31515',
  'string.value.json': '03458c',
  number: '0a6640',
  type: '006666',
  regexp: '800000',
  variable: '001188',
  'variable.predefined': '3a5294',
  constant: 'b00000',
  annotation: '555555',
  tag: '800000',
  metatag: 'b00000',
  'metatag.html': '555555',
  'attribute.name': 'b00000',
  'attribute.value': '03458c',
  key: '863b00',
  delimiter: '1f2328',
  operator: '555555',
  predefined: '990099',
  invalid: 'b00000'
}

const DARK_TOKENS: Palette = {
  '': 'd4d4d4',
  comment: '8fbe7b',
  keyword: '6cb0ea',
  'keyword.flow': 'd59ad0',
  string: 'dba38c',
  number: 'b5cea8',
  type: '4fd1bb',
  regexp: 'e39bc6',
  variable: '8cc2ec',
  'variable.predefined': '9db4e8',
  constant: '6cb0ea',
  annotation: 'eb9d9d',
  tag: '6cb0ea',
  'meta.tag': 'dba38c',
  'meta.scss': 'c8b48e',
  metatag: 'f29da0',
  'attribute.name': '9cdcfe',
  'attribute.value': 'dba38c',
  key: '9cdcfe',
  delimiter: 'dcdcdc',
  'delimiter.html': 'b4b4b4',
  operator: 'b0b0b0',
  predefined: 'ff8cff',
  invalid: 'ff9393'
}

// Lighter than Monaco's defaults (which alone cost a comment half its contrast), still plainly green/red.
const LIGHT_DIFF = {
  'diffEditor.insertedLineBackground': '#2ea04314',
  'diffEditor.insertedTextBackground': '#2ea0432e',
  'diffEditor.removedLineBackground': '#cf222e0f',
  'diffEditor.removedTextBackground': '#cf222e26'
}

const DARK_DIFF = {
  'diffEditor.insertedLineBackground': '#2ea0431f',
  'diffEditor.insertedTextBackground': '#2ea04333',
  'diffEditor.removedLineBackground': '#f851491a',
  'diffEditor.removedTextBackground': '#f8514933'
}

const rules = (palette: Palette, background: string): editor.ITokenThemeRule[] =>
  Object.entries(palette).map(([token, foreground]) =>
    token === '' ? { token, foreground, background } : { token, foreground }
  )

export const THEMES: Record<string, editor.IStandaloneThemeData> = {
  [LIGHT_THEME]: {
    base: 'vs',
    inherit: false,
    rules: rules(LIGHT_TOKENS, 'ffffff'),
    colors: {
      'editor.background': '#ffffff',
      'editor.foreground': '#1f2328',
      // The number of the empty line after a final newline is "dimmed": Monaco's own grey fails contrast.
      'editorLineNumber.dimmedForeground': '#237893',
      ...LIGHT_DIFF
    }
  },
  [DARK_THEME]: {
    base: 'vs-dark',
    inherit: false,
    rules: rules(DARK_TOKENS, '1e1e1e'),
    colors: {
      'editor.background': '#1e1e1e',
      'editor.foreground': '#d4d4d4',
      'editorLineNumber.dimmedForeground': '#858585',
      ...DARK_DIFF
    }
  }
}

/** The rejected-hunk line marking's colour (`.hunk-rejected-line` in review.css), drawn over the diff colours. */
export const REJECTED_LINE_BACKGROUND = '#c92a2a14'

export function defineThemes(define: (name: string, data: editor.IStandaloneThemeData) => void): void {
  for (const [name, data] of Object.entries(THEMES)) define(name, data)
}
