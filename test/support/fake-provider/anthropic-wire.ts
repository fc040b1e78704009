import type { ContentChunk, FakeHttpError, RenderPlan } from './script'

/** Renders one scripted turn as Anthropic Messages SSE frames (`event: <type>` + `data: <json>`). */
export function createAnthropicRenderer(plan: RenderPlan, messageId: string) {
  let blockIndex = -1
  let open: 'thinking' | 'text' | 'tool' | null = null
  let openToolIndex = -1

  const frame = (data: { type: string } & Record<string, unknown>): string =>
    `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`

  const closeBlock = (): string[] => {
    if (open === null) return []
    const frames: string[] = []
    if (open === 'thinking') {
      frames.push(
        frame({
          type: 'content_block_delta',
          index: blockIndex,
          delta: { type: 'signature_delta', signature: plan.signature }
        })
      )
    }
    frames.push(frame({ type: 'content_block_stop', index: blockIndex }))
    open = null
    return frames
  }

  const startBlock = (kind: 'thinking' | 'text' | 'tool', contentBlock: Record<string, unknown>): string[] => {
    const frames = closeBlock()
    blockIndex += 1
    open = kind
    frames.push(frame({ type: 'content_block_start', index: blockIndex, content_block: contentBlock }))
    return frames
  }

  return {
    head(): string[] {
      const usage = plan.usage
      return [
        frame({
          type: 'message_start',
          message: {
            id: messageId,
            type: 'message',
            role: 'assistant',
            model: plan.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: usage.inputTokens,
              cache_creation_input_tokens: usage.cacheWriteTokens,
              cache_read_input_tokens: usage.cacheReadTokens,
              output_tokens: 1
            }
          }
        })
      ]
    },

    chunk(chunk: ContentChunk): string[] {
      switch (chunk.kind) {
        case 'reasoning': {
          const frames =
            open === 'thinking' ? [] : startBlock('thinking', { type: 'thinking', thinking: '', signature: '' })
          frames.push(
            frame({
              type: 'content_block_delta',
              index: blockIndex,
              delta: { type: 'thinking_delta', thinking: chunk.text }
            })
          )
          return frames
        }
        case 'text': {
          const frames = open === 'text' ? [] : startBlock('text', { type: 'text', text: '' })
          frames.push(
            frame({ type: 'content_block_delta', index: blockIndex, delta: { type: 'text_delta', text: chunk.text } })
          )
          return frames
        }
        case 'tool-start': {
          openToolIndex = chunk.toolIndex
          const frames = startBlock('tool', { type: 'tool_use', id: chunk.id, name: chunk.name, input: {} })
          // Real traffic opens every input with an empty fragment.
          frames.push(
            frame({
              type: 'content_block_delta',
              index: blockIndex,
              delta: { type: 'input_json_delta', partial_json: '' }
            })
          )
          return frames
        }
        case 'tool-args': {
          if (open !== 'tool' || openToolIndex !== chunk.toolIndex)
            throw new Error('fake provider: tool arguments out of order')
          return [
            frame({
              type: 'content_block_delta',
              index: blockIndex,
              delta: { type: 'input_json_delta', partial_json: chunk.fragment }
            })
          ]
        }
      }
    },

    midStreamError(error: { type: string; message: string }): string[] {
      return [frame({ type: 'error', error: { type: error.type, message: error.message } })]
    },

    tail(): string[] {
      const usage = plan.usage
      return [
        ...closeBlock(),
        frame({
          type: 'message_delta',
          delta: { stop_reason: plan.stopReason, stop_sequence: null },
          usage: {
            input_tokens: usage.inputTokens,
            cache_creation_input_tokens: usage.cacheWriteTokens,
            cache_read_input_tokens: usage.cacheReadTokens,
            output_tokens: usage.outputTokens
          }
        }),
        frame({ type: 'message_stop' })
      ]
    }
  }
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error'
}

export function anthropicErrorBody(error: FakeHttpError, requestId: string): unknown {
  const type = error.type ?? ANTHROPIC_ERROR_TYPES[error.status] ?? 'api_error'
  return { type: 'error', error: { type, message: error.message ?? `fake ${type}` }, request_id: requestId }
}
