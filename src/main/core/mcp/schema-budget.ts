import { getEncoding, type Tiktoken } from 'js-tiktoken'
import type { McpToolEntry } from './hub'

let encoding: Tiktoken | undefined
const cache = new Map<string, number>()

/**
 * What the server tools' definitions cost in o200k tokens, in the wire form the model receives (as
 * `modus prompt` counts them). Cached by content: the same tool set is counted once.
 */
export function mcpSchemaTokens(tools: readonly McpToolEntry[]): number {
  if (tools.length === 0) return 0
  const wire = JSON.stringify(
    tools.map((tool) => ({
      name: tool.exposedName,
      description: tool.description ?? '',
      input_schema: tool.inputSchema
    }))
  )
  const known = cache.get(wire)
  if (known !== undefined) return known
  encoding ??= getEncoding('o200k_base')
  const tokens = encoding.encode(wire).length
  if (cache.size > 50) cache.clear()
  cache.set(wire, tokens)
  return tokens
}
