import { mcpToolName } from '../../../shared/tools/mcp'

/** Anthropic and OpenAI both accept function names of at most 64 characters `[A-Za-z0-9_-]`. */
const MAX_NAME = 64

/**
 * The function name the model sees for each server tool: `mcp--<server>--<tool>`, sanitised and
 * shortened. Two tools that end up with the same name get `_2`, `_3`… in order of (server, tool),
 * so the same servers always give the same names. Keys are `server\0tool`.
 */
export function assignExposedNames(tools: readonly { server: string; tool: string }[]): Map<string, string> {
  const sorted = [...tools].sort((a, b) =>
    a.server === b.server ? compare(a.tool, b.tool) : compare(a.server, b.server)
  )
  const taken = new Set<string>()
  const names = new Map<string, string>()
  for (const { server, tool } of sorted) {
    const base = mcpToolName(server, tool)
    let name = base
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - `_${n}`.length)}_${n}`
    taken.add(name)
    names.set(`${server}\u0000${tool}`, name)
  }
  return names
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Models sometimes write `mcp__server__tool` or swap `-` and `_`: compared loosely as a fallback. */
export const sameToolName = (exposed: string, written: string): boolean =>
  exposed.replace(/-/g, '_') === written.replace(/-/g, '_')
