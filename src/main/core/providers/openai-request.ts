import type OpenAI from 'openai'
import type {
  AssistantBlock,
  ConversationMessage,
  ImageBlock,
  TextBlock,
  ToolResultBlock,
  UserBlock
} from '../../../shared/agent/messages'
import type { ModelRequest } from './types'

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam
type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart
type StreamingParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming

export interface OpenAIRequestOptions {
  /** `max_completion_tokens` (OpenAI, required by reasoning models) or `max_tokens` (most compatible servers). */
  maxTokensField: 'max_completion_tokens' | 'max_tokens'
  includeUsage: boolean
}

/** Chat Completions has no is_error: the result text says so, in words the model reads. */
const ERROR_PREFIX = 'Error: '

const imagePart = (image: ImageBlock): UserPart => ({
  type: 'image_url',
  image_url: { url: `data:${image.mediaType};base64,${image.dataBase64}` }
})

function toolMessage(result: ToolResultBlock): { tool: Message; images: ImageBlock[] } {
  const text = result.content
    .filter((part): part is TextBlock => part.type === 'text')
    .map((part) => part.text)
    .join('\n')
  const images = result.content.filter((part): part is ImageBlock => part.type === 'image')
  const body = result.isError && !text.startsWith(ERROR_PREFIX) ? `${ERROR_PREFIX}${text}` : text
  const withImageNote = images.length > 0 ? `${body}\n(${images.length} image(s) attached in the next message)` : body
  return { tool: { role: 'tool', tool_call_id: result.toolUseId, content: withImageNote || '(no output)' }, images }
}

/** Tool messages must directly follow the assistant's tool calls; images go in a user message after them. */
function userMessages(content: UserBlock[]): Message[] {
  const messages: Message[] = []
  const parts: UserPart[] = []
  for (const block of content) {
    if (block.type === 'tool_result') {
      const { tool, images } = toolMessage(block)
      messages.push(tool)
      parts.push(...images.map(imagePart))
    } else if (block.type === 'image') {
      parts.push(imagePart(block))
    } else if (block.text !== '') {
      parts.push({ type: 'text', text: block.text })
    }
  }
  if (parts.length > 0) {
    const onlyText = parts.every((part) => part.type === 'text')
    messages.push({
      role: 'user',
      content: onlyText ? parts.map((part) => (part as { text: string }).text).join('\n\n') : parts
    })
  }
  return messages
}

function assistantMessage(content: AssistantBlock[]): Message {
  const text = content
    .filter((block): block is TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('')
  const toolCalls = content
    .filter((block) => block.type === 'tool_use')
    .map((block) => ({
      id: block.id,
      type: 'function' as const,
      function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) }
    }))
  // Reasoning is not sent back: Chat Completions has no field for it and some servers reject it.
  return {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {})
  }
}

export function toOpenAIMessages(system: string, messages: ConversationMessage[]): Message[] {
  const wire: Message[] = system ? [{ role: 'system', content: system }] : []
  for (const message of messages) {
    if (message.role === 'assistant') wire.push(assistantMessage(message.content))
    else wire.push(...userMessages(message.content))
  }
  return wire
}

export function toOpenAIParams(request: ModelRequest, options: OpenAIRequestOptions): StreamingParams {
  return {
    model: request.model,
    stream: true,
    messages: toOpenAIMessages(request.system, request.messages),
    ...(options.includeUsage ? { stream_options: { include_usage: true } } : {}),
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: tool.inputSchema }
          }))
        }
      : {}),
    ...(request.maxOutputTokens !== undefined ? { [options.maxTokensField]: request.maxOutputTokens } : {})
  }
}
