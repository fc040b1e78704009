/** What a browser_action result says, read back from the text the tool writes (tools/browser-action.ts). */
export interface BrowserFacts {
  url: string | null
  console: string[]
  errors: string[]
}

const CONSOLE = 'Console since the previous action:'
const ERRORS = 'Page errors since the previous action:'
const NO_IMAGES_NOTE = '(A screenshot was taken but not sent'

/** The lines of a section, from its heading to the next heading; `(none)` on the heading line is empty. */
function section(lines: readonly string[], heading: string, stops: readonly string[]): string[] {
  const start = lines.findIndex((line) => line.startsWith(heading))
  if (start < 0 || lines[start].slice(heading.length).trim() === '(none)') return []
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => stops.some((stop) => line.startsWith(stop)))
  return end < 0 ? rest : rest.slice(0, end)
}

export function browserFacts(text: string): BrowserFacts {
  const lines = text.split('\n')
  const urlLine = lines.find((line) => line.startsWith('Current URL: '))
  return {
    url: urlLine ? urlLine.slice('Current URL: '.length) : null,
    console: section(lines, CONSOLE, [ERRORS, NO_IMAGES_NOTE]),
    errors: section(lines, ERRORS, [NO_IMAGES_NOTE])
  }
}
