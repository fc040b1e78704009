import type Anthropic from '@anthropic-ai/sdk'
import { sdkLogger } from './sdk-logger'
import { findModel, type ModelOverride } from '../../../shared/models'
import { toAnthropicParams } from './anthropic-request'
import { classifyProviderError, type ErrorContext } from './classify-error'
import { cancelledError, ProviderError } from './errors'
import { streamWithRetry, type RetryOptions } from './retry'
import { loadAnthropicSdk } from './sdks'
import { CUT_OFF_TOOL_CALL, parseToolArguments } from './tool-arguments'
import type { ModelProvider, ModelRequest, ModelStreamEvent, ModelUsage } from './types'
import { DEFAULT_IDLE_TIMEOUT_MS, withIdleGuard } from './idle-guard'
import { checkRequestAgainstModel } from './model-checks'

export interface AnthropicProviderOptions {
  apiKey: string
  /** The origin; the SDK appends `/v1/messages`. */
  baseUrl: string
  label?: string
  modelOverrides?: readonly ModelOverride[]
  retry?: RetryOptions
  timeoutMs?: number
  /** A started stream silent this long is dropped (and retried if nothing was streamed). Default 180 s. */
  idleTimeoutMs?: number
  headers?: Record<string, string>
  fetch?: typeof fetch
  /** Provider id; default `anthropic:<baseUrl>`. */
  id?: string
}

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent
type OpenBlock = { kind: 'tool'; id: string; name: string; json: string } | { kind: 'other' }

const STOP_REASONS: Record<string, 'end_turn' | 'tool_use' | 'max_tokens'> = {
  end_turn: 'end_turn',
  stop_sequence: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens'
}

export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  // Made on the first request: the SDK is loaded only then.
  let client: Promise<Anthropic> | undefined
  const clientOf = (): Promise<Anthropic> =>
    (client ??= loadAnthropicSdk().then(
      (AnthropicSdk) =>
        new AnthropicSdk({
          apiKey: options.apiKey,
          baseURL: options.baseUrl,
          maxRetries: 0, // we retry ourselves, with events the UI can show
          logger: sdkLogger,
          ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
          ...(options.headers ? { defaultHeaders: options.headers } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {})
        })
    ))
  const label = options.label ?? 'Anthropic'

  const attempt = (request: ModelRequest, outer: AbortSignal) =>
    withIdleGuard(outer, options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, label, async function* (signal, guard) {
      const model = findModel(request.model, options.modelOverrides)
      const stream = await (await clientOf()).messages.create(toAnthropicParams(request, model), { signal })
      yield* translateStream(guard(stream), signal)
    })

  return {
    id: options.id ?? `anthropic:${options.baseUrl}`,
    async *stream(request, signal) {
      const context: ErrorContext = { providerLabel: label, model: request.model, baseUrl: options.baseUrl, signal }
      checkRequestAgainstModel(request, {
        apiKey: options.apiKey,
        label,
        modelOverrides: options.modelOverrides,
        needsKey: true
      })
      yield* streamWithRetry(
        () => attempt(request, signal),
        signal,
        (error) => classifyProviderError(error, context),
        options.retry
      )
    }
  }
}

/** Maps raw Anthropic stream events to `ModelStreamEvent`s; usage totals overwrite, never add. */
export async function* translateStream(
  stream: AsyncIterable<StreamEvent>,
  signal: AbortSignal
): AsyncGenerator<ModelStreamEvent> {
  const blocks = new Map<number, OpenBlock>()
  const usage: ModelUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }
  let rawStopReason: string | null = null
  let finished = false

  for await (const event of stream) {
    switch (event.type) {
      case 'message_start':
        mergeUsage(usage, event.message.usage)
        break
      case 'content_block_start': {
        const block = event.content_block
        if (block.type === 'tool_use') {
          blocks.set(event.index, { kind: 'tool', id: block.id, name: block.name, json: '' })
          yield { type: 'tool-call-start', callId: block.id, name: block.name }
        } else {
          blocks.set(event.index, { kind: 'other' })
          if (block.type === 'text' && block.text) yield { type: 'text', text: block.text }
        }
        break
      }
      case 'content_block_delta': {
        const delta = event.delta
        if (delta.type === 'text_delta' && delta.text) yield { type: 'text', text: delta.text }
        else if (delta.type === 'thinking_delta' && delta.thinking) yield { type: 'reasoning', text: delta.thinking }
        else if (delta.type === 'signature_delta') yield { type: 'reasoning-signature', signature: delta.signature }
        else if (delta.type === 'input_json_delta') {
          const block = blocks.get(event.index)
          if (block?.kind === 'tool' && delta.partial_json) {
            block.json += delta.partial_json
            yield { type: 'tool-call-delta', callId: block.id, argsDelta: delta.partial_json }
          }
        }
        break
      }
      case 'content_block_stop': {
        const block = blocks.get(event.index)
        blocks.delete(event.index)
        if (block?.kind === 'tool')
          yield {
            type: 'tool-call',
            callId: block.id,
            name: block.name,
            rawArgs: block.json,
            ...parseToolArguments(block.json)
          }
        break
      }
      case 'message_delta':
        rawStopReason = event.delta.stop_reason ?? rawStopReason
        mergeUsage(usage, event.usage)
        break
      case 'message_stop':
        finished = true
        break
    }
  }
  if (signal.aborted) throw cancelledError()
  if (!finished) throw new ProviderError('network', 'The connection closed before the answer was complete.')
  // A tool block the output limit cut off never gets content_block_stop.
  for (const block of blocks.values()) {
    if (block.kind === 'tool')
      yield {
        type: 'tool-call',
        callId: block.id,
        name: block.name,
        rawArgs: block.json,
        input: null,
        parseError: CUT_OFF_TOOL_CALL
      }
  }
  yield { type: 'usage', usage }
  yield {
    type: 'done',
    stopReason: STOP_REASONS[rawStopReason ?? ''] ?? 'other',
    ...(rawStopReason ? { rawStopReason } : {})
  }
}

type WireUsage = {
  input_tokens?: number | null
  output_tokens?: number | null
  cache_read_input_tokens?: number | null
  cache_creation_input_tokens?: number | null
}

/** Keeps earlier values where a field is absent or null (older traffic sends only output_tokens). */
function mergeUsage(target: ModelUsage, wire: WireUsage | null | undefined): void {
  if (!wire) return
  if (typeof wire.input_tokens === 'number') target.inputTokens = wire.input_tokens
  if (typeof wire.output_tokens === 'number') target.outputTokens = wire.output_tokens
  if (typeof wire.cache_read_input_tokens === 'number') target.cacheReadTokens = wire.cache_read_input_tokens
  if (typeof wire.cache_creation_input_tokens === 'number') target.cacheWriteTokens = wire.cache_creation_input_tokens
}
