import type OpenAI from 'openai'
import { sdkLogger } from './sdk-logger'
import type { ModelOverride } from '../../../shared/models'
import { classifyProviderError, type ErrorContext } from './classify-error'
import { cancelledError, ProviderError } from './errors'
import { DEFAULT_IDLE_TIMEOUT_MS, withIdleGuard } from './idle-guard'
import { checkRequestAgainstModel } from './model-checks'
import { toOpenAIParams, type OpenAIRequestOptions } from './openai-request'
import { streamWithRetry, type RetryOptions } from './retry'
import { loadOpenAISdk } from './sdks'
import { parseToolArguments } from './tool-arguments'
import type { ModelProvider, ModelRequest, ModelStreamEvent, ModelUsage } from './types'

export interface OpenAIProviderOptions {
  apiKey: string
  /** Includes `/v1`; the SDK appends `/chat/completions`. */
  baseUrl: string
  /** False for OpenAI-compatible servers (Ollama, LM Studio, vLLM), which often need no key. */
  needsKey?: boolean
  label?: string
  /** Defaults: OpenAI → max_completion_tokens; compatible servers → max_tokens. */
  maxTokensField?: OpenAIRequestOptions['maxTokensField']
  /** `stream_options.include_usage`; default true. Turn off for servers that reject it. */
  includeUsage?: boolean
  modelOverrides?: readonly ModelOverride[]
  retry?: RetryOptions
  timeoutMs?: number
  /** A started stream silent this long is dropped (and retried if nothing was streamed). Default 180 s. */
  idleTimeoutMs?: number
  headers?: Record<string, string>
  fetch?: typeof fetch
  /** Provider id; default `openai:<baseUrl>`. */
  id?: string
}

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk
interface PendingCall {
  id: string
  name: string
  args: string
  started: boolean
}

const FINISH_REASONS: Record<string, 'end_turn' | 'tool_use' | 'max_tokens'> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens'
}

export function createOpenAIProvider(options: OpenAIProviderOptions): ModelProvider {
  const needsKey = options.needsKey ?? true
  // Made on the first request: the SDK is loaded only then.
  let client: Promise<OpenAI> | undefined
  const clientOf = (): Promise<OpenAI> =>
    (client ??= loadOpenAISdk().then(
      (OpenAISdk) =>
        new OpenAISdk({
          // The SDK refuses an empty key; local servers ignore whatever we send.
          apiKey: options.apiKey || 'no-key',
          baseURL: options.baseUrl,
          maxRetries: 0, // we retry ourselves, with events the UI can show
          logger: sdkLogger,
          ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
          ...(options.headers ? { defaultHeaders: options.headers } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {})
        })
    ))
  const label = options.label ?? 'OpenAI'
  const requestOptions: OpenAIRequestOptions = {
    maxTokensField: options.maxTokensField ?? (needsKey ? 'max_completion_tokens' : 'max_tokens'),
    includeUsage: options.includeUsage ?? true
  }

  const attempt = (request: ModelRequest, outer: AbortSignal) =>
    withIdleGuard(outer, options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, label, async function* (signal, guard) {
      const stream = await (
        await clientOf()
      ).chat.completions.create(toOpenAIParams(request, requestOptions), { signal })
      yield* translateChunks(guard(stream), signal)
    })

  return {
    id: options.id ?? `openai:${options.baseUrl}`,
    async *stream(request, signal) {
      const context: ErrorContext = { providerLabel: label, model: request.model, baseUrl: options.baseUrl, signal }
      checkRequestAgainstModel(request, {
        apiKey: options.apiKey,
        label,
        modelOverrides: options.modelOverrides,
        needsKey
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

/** Reasoning arrives as `reasoning_content` (DeepSeek, vLLM, LM Studio) or `reasoning` (OpenRouter, Ollama). */
function reasoningOf(delta: Record<string, unknown>): string | undefined {
  const value = delta.reasoning_content ?? delta.reasoning
  return typeof value === 'string' && value !== '' ? value : undefined
}

/**
 * Maps Chat Completions chunks to `ModelStreamEvent`s. Tool calls are keyed by `index` (ids come only
 * on the first fragment, and fragments of parallel calls may interleave); they complete at the end.
 */
export async function* translateChunks(
  stream: AsyncIterable<Chunk>,
  signal: AbortSignal
): AsyncGenerator<ModelStreamEvent> {
  const calls = new Map<number, PendingCall>()
  let usage: ModelUsage | null = null
  let finishReason: string | null = null

  for await (const chunk of stream) {
    if (chunk.usage) usage = toUsage(chunk.usage)
    const choice = chunk.choices?.[0]
    if (!choice) continue // the include_usage chunk has no choices
    const delta = (choice.delta ?? {}) as Chunk['choices'][number]['delta'] & Record<string, unknown>
    const reasoning = reasoningOf(delta)
    if (reasoning) yield { type: 'reasoning', text: reasoning }
    if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', text: delta.content }
    // A refusal replaces the answer; show it as text so the user sees why nothing else came.
    if (typeof delta.refusal === 'string' && delta.refusal !== '') yield { type: 'text', text: delta.refusal }
    for (const fragment of delta.tool_calls ?? []) yield* accumulateToolCall(calls, fragment)
    if (choice.finish_reason) finishReason = choice.finish_reason
  }
  // openai 7 ends the iteration quietly when aborted.
  if (signal.aborted) throw cancelledError()
  if (finishReason === null) throw new ProviderError('network', 'The connection closed before the answer was complete.')
  for (const index of [...calls.keys()].sort((a, b) => a - b)) {
    const call = calls.get(index)!
    yield { type: 'tool-call', callId: call.id, name: call.name, rawArgs: call.args, ...parseToolArguments(call.args) }
  }
  if (usage) yield { type: 'usage', usage }
  const stopReason = calls.size > 0 && finishReason === 'stop' ? 'tool_use' : (FINISH_REASONS[finishReason] ?? 'other')
  yield { type: 'done', stopReason, rawStopReason: finishReason }
}

type ToolCallFragment = NonNullable<Chunk['choices'][number]['delta']['tool_calls']>[number]

function* accumulateToolCall(calls: Map<number, PendingCall>, fragment: ToolCallFragment): Generator<ModelStreamEvent> {
  // Some compatible servers omit `index`; then each fragment with an id opens the next call.
  const index = fragment.index ?? (fragment.id ? calls.size : Math.max(0, calls.size - 1))
  let call = calls.get(index)
  if (!call) {
    call = { id: fragment.id || `call_${index}`, name: '', args: '', started: false }
    calls.set(index, call)
  }
  if (fragment.id && !call.started) call.id = fragment.id
  if (fragment.function?.name && !call.started) call.name = fragment.function.name
  if (!call.started && call.name) {
    call.started = true
    yield { type: 'tool-call-start', callId: call.id, name: call.name }
  }
  const args = fragment.function?.arguments
  if (args) {
    call.args += args
    if (call.started) yield { type: 'tool-call-delta', callId: call.id, argsDelta: args }
  }
}

function toUsage(wire: OpenAI.Completions.CompletionUsage): ModelUsage {
  const cached = wire.prompt_tokens_details?.cached_tokens ?? 0
  return {
    inputTokens: Math.max(0, wire.prompt_tokens - cached),
    outputTokens: wire.completion_tokens,
    cacheReadTokens: cached,
    cacheWriteTokens: 0
  }
}
