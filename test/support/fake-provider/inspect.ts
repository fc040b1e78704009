import type { RecordedRequest } from './script'

/** Protocol-neutral views of what the client sent, for assertions inside turn functions and tests. */

export interface SentToolResult {
  toolUseId: string
  text: string
  /** Anthropic sends `is_error`; OpenAI has no such field (undefined). */
  isError: boolean | undefined
}

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part) => part && (part.type === 'text' || part.type === 'input_text'))
    .map((part) => part.text as string)
    .join('')
}

/** Tool results in the request's trailing turn (the answers to the previous assistant message). */
export function toolResultsIn(request: RecordedRequest): SentToolResult[] {
  const messages: any[] = request.body?.messages ?? []
  if (request.protocol === 'anthropic') {
    const last = messages[messages.length - 1]
    if (!last || last.role !== 'user' || !Array.isArray(last.content)) return []
    return last.content
      .filter((block: any) => block.type === 'tool_result')
      .map((block: any) => ({ toolUseId: block.tool_use_id, text: textOf(block.content), isError: block.is_error }))
  }
  const results: SentToolResult[] = []
  for (let i = messages.length - 1; i >= 0 && messages[i].role !== 'assistant'; i--) {
    if (messages[i].role === 'tool') {
      results.unshift({ toolUseId: messages[i].tool_call_id, text: textOf(messages[i].content), isError: undefined })
    }
  }
  return results
}

/** Text of the last user message (excluding tool results). */
export function lastUserText(request: RecordedRequest): string {
  const messages: any[] = request.body?.messages ?? []
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      const text = textOf(messages[i].content)
      if (text) return text
    }
  }
  return ''
}

export function systemPromptOf(request: RecordedRequest): string {
  if (request.protocol === 'anthropic') return textOf(request.body?.system)
  const system = (request.body?.messages ?? []).find((m: any) => m.role === 'system' || m.role === 'developer')
  return system ? textOf(system.content) : ''
}

export function toolNamesOf(request: RecordedRequest): string[] {
  const tools: any[] = request.body?.tools ?? []
  return tools.map((tool) => tool.name ?? tool.function?.name)
}

/** The request's bearer or x-api-key credential. */
export function apiKeyOf(request: RecordedRequest): string | undefined {
  const auth = request.headers.authorization
  const bearer = typeof auth === 'string' ? /^Bearer\s+(.+)$/i.exec(auth)?.[1] : undefined
  const xApiKey = request.headers['x-api-key']
  return bearer ?? (typeof xApiKey === 'string' ? xApiKey : undefined)
}
