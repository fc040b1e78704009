import type { Definition } from './parser'

const MAX_LINE_CHARS = 160

/** The source line a definition starts on, trimmed and cut, e.g. `export class Circle extends Base {`. */
function headline(lines: readonly string[], definition: Definition): string {
  const text = (lines[definition.startLine - 1] ?? '').trimEnd()
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text
}

/**
 * The compact form of Roo's list_code_definition_names: a `# path` header, then one row per
 * definition, `start--end | first source line` (1-based, inclusive), in source order.
 */
export function formatDefinitions(path: string, text: string, definitions: readonly Definition[]): string {
  const lines = text.split(/\r?\n/)
  const rows = definitions.map((d) => `${d.startLine}--${d.endLine} | ${headline(lines, d)}`)
  return [`# ${path}`, ...rows].join('\n')
}
