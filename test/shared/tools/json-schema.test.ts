import { describe, expect, it } from 'vitest'
import { getEncoding } from 'js-tiktoken'
import type { z } from 'zod'
import { builtInTools } from '../../../src/shared/tools/catalog'
import { toolInputSchema, toolSpec } from '../../../src/shared/tools/json-schema'
import type { ToolDefinition } from '../../../src/shared/tools/types'
import { filterToolsForMode } from '../../../src/shared/policy/tool-access'
import { BUILT_IN_MODES } from '../../../src/shared/modes/builtin'
import { toAnthropicParams } from '../../../src/main/core/providers/anthropic-request'
import { toOpenAIParams } from '../../../src/main/core/providers/openai-request'

/** The tools as each provider's request puts them on the wire (the path every model call takes). */
const request = (tools: readonly ToolDefinition[]) => ({
  model: 'm',
  system: '',
  messages: [],
  tools: tools.map(toolSpec)
})
const openAiTools = (tools: readonly ToolDefinition[]) =>
  toOpenAIParams(request(tools), { maxTokensField: 'max_tokens', includeUsage: false }).tools! as Array<{
    function: { name: string; parameters: Record<string, unknown> }
  }>
const anthropicTools = (tools: readonly ToolDefinition[]) =>
  toAnthropicParams(request(tools), undefined).tools! as Array<{ name: string; input_schema: unknown }>

describe('tool JSON schemas', () => {
  it('derives OpenAI and Anthropic shapes from the same zod schema (snapshot)', () => {
    const openai = openAiTools(builtInTools)
    const anthropic = anthropicTools(builtInTools)
    for (let i = 0; i < builtInTools.length; i++) {
      expect(anthropic[i].input_schema).toEqual({ ...openai[i].function.parameters, type: 'object' })
      expect(openai[i].function.name).toBe(anthropic[i].name)
    }
    expect({ openai, anthropic }).toMatchSnapshot()
  })

  it('marks required parameters and leaves defaults optional', () => {
    const readFile = toolInputSchema(builtInTools.find((t) => t.name === 'read_file')!)
    expect(readFile.required).toEqual(['path'])
    expect((readFile.properties as Record<string, { enum?: string[] }>).mode.enum).toEqual(['slice', 'indentation'])
    const listFiles = toolInputSchema(builtInTools.find((t) => t.name === 'list_files')!)
    expect(listFiles.required).toEqual(['path'])
    expect(readFile.additionalProperties).toBe(false)
    expect('$schema' in readFile).toBe(false)
  })

  it('offers the model exactly the parameters each validator takes: same names, same required ones, nothing else', () => {
    for (const tool of builtInTools) {
      const schema = anthropicTools([tool])[0].input_schema as {
        properties: Record<string, unknown>
        required?: string[]
        additionalProperties?: boolean
      }
      const shape = (tool.params as unknown as z.ZodObject).shape as Record<string, z.ZodType>
      expect(Object.keys(schema.properties).sort(), tool.name).toEqual(Object.keys(shape).sort())
      const required = Object.keys(shape).filter((key) => !shape[key].safeParse(undefined).success)
      expect([...(schema.required ?? [])].sort(), tool.name).toEqual(required.sort())
      expect(schema.additionalProperties, tool.name).toBe(false)
      expect(
        tool.params.safeParse({ not_a_parameter: 1 }).error?.issues.some((issue) => issue.code === 'unrecognized_keys'),
        tool.name
      ).toBe(true)
    }
  })

  it('keeps code mode tool definitions small (o200k tokens)', () => {
    const code = BUILT_IN_MODES.find((mode) => mode.slug === 'code')!
    const tools = filterToolsForMode({ mode: code })
    const encoding = getEncoding('o200k_base')
    const tokens = encoding.encode(JSON.stringify(openAiTools(tools))).length
    console.log(`[tools] code mode offers ${tools.length} tools, ${tokens} o200k tokens of definitions`)
    // The whole request (system prompt + tools) targets 3,800 tokens; tools get at most 2,000.
    expect(tokens).toBeLessThanOrEqual(2000)
  })
})
