import type { ContentChunk, FakeHttpError, RenderPlan } from './script'

export interface OpenAIRenderOptions {
  includeUsage: boolean
  /** `reasoning_content` (DeepSeek, vLLM, LM Studio) or `reasoning` (OpenRouter, Ollama). */
  reasoningField: 'reasoning_content' | 'reasoning'
}

const FINISH_REASONS = { end_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length' } as const

/** Renders one scripted turn as OpenAI Chat Completions chunks (`data: <json>`, then `data: [DONE]`). */
export function createOpenAIRenderer(plan: RenderPlan, completionId: string, options: OpenAIRenderOptions) {
  const created = Math.floor(Date.now() / 1000)

  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string => {
    const body: Record<string, unknown> = {
      id: completionId,
      object: 'chat.completion.chunk',
      created,
      model: plan.model,
      system_fingerprint: 'fp_fake',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }]
    }
    if (options.includeUsage) body.usage = null
    return `data: ${JSON.stringify(body)}\n\n`
  }

  return {
    head(): string[] {
      return [chunk({ role: 'assistant', content: plan.text.length > 0 ? '' : null, refusal: null })]
    },

    chunk(content: ContentChunk): string[] {
      switch (content.kind) {
        case 'reasoning':
          return [chunk({ [options.reasoningField]: content.text })]
        case 'text':
          return [chunk({ content: content.text })]
        case 'tool-start':
          return [
            chunk({
              tool_calls: [
                {
                  index: content.toolIndex,
                  id: content.id,
                  type: 'function',
                  function: { name: content.name, arguments: '' }
                }
              ]
            })
          ]
        case 'tool-args':
          return [chunk({ tool_calls: [{ index: content.toolIndex, function: { arguments: content.fragment } }] })]
      }
    },

    midStreamError(error: { type: string; message: string }): string[] {
      return [
        `data: ${JSON.stringify({ error: { message: error.message, type: error.type, param: null, code: null } })}\n\n`
      ]
    },

    tail(): string[] {
      const frames = [chunk({}, FINISH_REASONS[plan.stopReason])]
      if (options.includeUsage) {
        const u = plan.usage
        const prompt = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens
        frames.push(
          `data: ${JSON.stringify({
            id: completionId,
            object: 'chat.completion.chunk',
            created,
            model: plan.model,
            system_fingerprint: 'fp_fake',
            choices: [],
            usage: {
              prompt_tokens: prompt,
              completion_tokens: u.outputTokens,
              total_tokens: prompt + u.outputTokens,
              prompt_tokens_details: { cached_tokens: u.cacheReadTokens },
              completion_tokens_details: { reasoning_tokens: 0 }
            }
          })}\n\n`
        )
      }
      frames.push('data: [DONE]\n\n')
      return frames
    }
  }
}

const OPENAI_ERRORS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null }
}

export function openaiErrorBody(error: FakeHttpError): unknown {
  const defaults = OPENAI_ERRORS[error.status] ?? { type: 'server_error', code: null }
  const type = error.type ?? defaults.type
  return {
    error: { message: error.message ?? `fake ${type}`, type, param: null, code: error.code ?? defaults.code }
  }
}
