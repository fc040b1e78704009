import type Anthropic from '@anthropic-ai/sdk'
import type {
  AssistantBlock,
  ConversationMessage,
  ImageBlock,
  TextBlock,
  UserBlock
} from '../../../shared/agent/messages'
import type { ModelInfo } from '../../../shared/models'
import type { ModelRequest } from './types'

type MessageParam = Anthropic.Messages.MessageParam
type BlockParam = Anthropic.Messages.ContentBlockParam
type StreamingParams = Anthropic.Messages.MessageCreateParamsStreaming

const EPHEMERAL = { type: 'ephemeral' } as const
/** Anthropic allows four cache breakpoints: the system prompt plus the latest two user turns. */
const CACHED_USER_TURNS = 2
const DEFAULT_MAX_TOKENS = 8_192
const MAX_DEFAULT_OUTPUT = 32_000

const imageParam = (image: ImageBlock): Anthropic.Messages.ImageBlockParam => ({
  type: 'image',
  source: { type: 'base64', media_type: image.mediaType as 'image/png', data: image.dataBase64 }
})

const textParam = (text: string): Anthropic.Messages.TextBlockParam => ({ type: 'text', text })

function resultContent(
  parts: Array<TextBlock | ImageBlock>
): Array<Anthropic.Messages.TextBlockParam | Anthropic.Messages.ImageBlockParam> {
  return parts
    .filter((part) => part.type === 'image' || part.text !== '')
    .map((part) => (part.type === 'image' ? imageParam(part) : textParam(part.text)))
}

function userBlocks(content: UserBlock[]): BlockParam[] {
  // The API wants tool results first in the user turn that answers a tool_use message.
  const results: BlockParam[] = []
  const rest: BlockParam[] = []
  for (const block of content) {
    if (block.type === 'tool_result') {
      const parts = resultContent(block.content)
      results.push({
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        is_error: block.isError,
        ...(parts.length ? { content: parts } : {})
      })
    } else if (block.type === 'image') {
      rest.push(imageParam(block))
    } else if (block.text !== '') {
      rest.push(textParam(block.text))
    }
  }
  return [...results, ...rest]
}

function assistantBlocks(content: AssistantBlock[]): BlockParam[] {
  const blocks: BlockParam[] = []
  for (const block of content) {
    if (block.type === 'text' && block.text !== '') blocks.push(textParam(block.text))
    // Thinking goes back unchanged with its signature; without one (another provider wrote it) the API would refuse it.
    if (block.type === 'reasoning' && block.signature)
      blocks.push({ type: 'thinking', thinking: block.text, signature: block.signature })
    if (block.type === 'tool_use') {
      const input =
        block.input !== null && typeof block.input === 'object' && !Array.isArray(block.input) ? block.input : {}
      blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: input })
    }
  }
  return blocks
}

export function toAnthropicMessages(messages: ConversationMessage[]): MessageParam[] {
  const params: MessageParam[] = messages.map((message) => {
    const content = message.role === 'user' ? userBlocks(message.content) : assistantBlocks(message.content)
    // Every message but a final assistant one must have content.
    return { role: message.role, content: content.length > 0 ? content : [textParam('(empty)')] }
  })
  markLatestUserTurnsForCache(params)
  return params
}

function markLatestUserTurnsForCache(params: MessageParam[]): void {
  let marked = 0
  for (let i = params.length - 1; i >= 0 && marked < CACHED_USER_TURNS; i--) {
    const message = params[i]
    if (message.role !== 'user' || !Array.isArray(message.content)) continue
    const last = message.content[message.content.length - 1] as BlockParam & { cache_control?: unknown }
    last.cache_control = EPHEMERAL
    marked++
  }
}

export function toAnthropicParams(request: ModelRequest, model: ModelInfo | undefined): StreamingParams {
  const budget = request.reasoningBudgetTokens
  const thinking = budget !== undefined && budget > 0 && model?.supportsReasoning !== false
  const defaultMax = model ? Math.min(model.maxOutput, MAX_DEFAULT_OUTPUT) : DEFAULT_MAX_TOKENS
  let maxTokens = request.maxOutputTokens ?? defaultMax
  // max_tokens must exceed the thinking budget.
  if (thinking && maxTokens <= budget) maxTokens = budget + DEFAULT_MAX_TOKENS
  return {
    model: request.model,
    max_tokens: maxTokens,
    stream: true,
    ...(request.system ? { system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }] } : {}),
    messages: toAnthropicMessages(request.messages),
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: tool.inputSchema as Anthropic.Messages.Tool.InputSchema
          }))
        }
      : {}),
    ...(thinking
      ? {
          thinking:
            model?.thinkingStyle === 'adaptive' ? { type: 'adaptive' } : { type: 'enabled', budget_tokens: budget }
        }
      : {})
  }
}
