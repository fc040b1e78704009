import { z } from 'zod'
import type { ToolDefinition } from './types'

/** The JSON schema of a tool's arguments, derived from its zod params (one source). */
export function toolInputSchema(tool: ToolDefinition): Record<string, unknown> {
  if (tool.inputJsonSchema) return tool.inputJsonSchema
  const { $schema: _drop, ...schema } = z.toJSONSchema(tool.params, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  return schema
}

/** A tool as it is offered to the model: the providers turn this into their own wire shape. */
export interface ToolSpec {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

export const toolSpec = (tool: ToolDefinition): ToolSpec => ({
  name: tool.name,
  description: tool.description,
  inputSchema: toolInputSchema(tool)
})
