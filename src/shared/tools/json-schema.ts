import { z } from 'zod'
import type { ToolDefinition } from './types'

/** The JSON schema of a tool's arguments, derived from its zod params (one source). */
export function toolInputSchema(tool: ToolDefinition): Record<string, unknown> {
  if (tool.inputJsonSchema) return tool.inputJsonSchema
  const { $schema: _drop, ...schema } = z.toJSONSchema(tool.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return schema
}

export interface OpenAiFunctionTool {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

export interface AnthropicTool {
  name: string
  description: string
  input_schema: Record<string, unknown> & { type: 'object' }
}

export const toOpenAiTool = (tool: ToolDefinition): OpenAiFunctionTool => ({
  type: 'function',
  function: { name: tool.name, description: tool.description, parameters: toolInputSchema(tool) }
})

export const toAnthropicTool = (tool: ToolDefinition): AnthropicTool => ({
  name: tool.name,
  description: tool.description,
  input_schema: { ...toolInputSchema(tool), type: 'object' }
})
