import type { ConversationMessage } from '../../../shared/agent/messages'
import type { ToolSpec } from '../../../shared/tools/json-schema'

/** A tool offered to the model, already converted to JSON schema from its zod params. */
export type ModelToolSpec = ToolSpec

export interface ModelRequest {
  model: string
  system: string
  messages: ConversationMessage[]
  tools: ModelToolSpec[]
  maxOutputTokens?: number
  /** Anthropic extended thinking budget; ignored by providers without it. */
  reasoningBudgetTokens?: number
}

/** Token counts of one turn. `inputTokens` excludes cached tokens: the whole prompt is input + cacheRead + cacheWrite. */
export interface ModelUsage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

/** One normalised stream, whatever the wire protocol. */
export type ModelStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'reasoning-signature'; signature: string }
  | { type: 'tool-call-start'; callId: string; name: string }
  | { type: 'tool-call-delta'; callId: string; argsDelta: string }
  /** A complete call; `input` is parsed JSON, or `parseError` says why it could not be. */
  | { type: 'tool-call'; callId: string; name: string; input: unknown; rawArgs: string; parseError?: string }
  | { type: 'usage'; usage: ModelUsage }
  /** `retryNow` ends the wait early (the user's "Retry now"); `status` is the HTTP status that failed. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string; status?: number; retryNow?: () => void }
  /** `rawStopReason` is the provider's own value (e.g. `refusal`, `content_filter`, `pause_turn`). */
  | { type: 'done'; stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'other'; rawStopReason?: string }

export interface ModelProvider {
  readonly id: string
  /**
   * Streams one model turn. Failures are thrown as `ProviderError` (errors.ts): retryable ones are
   * retried inside (yielding `retry` events) as long as nothing was streamed yet; after content they
   * are thrown with `partial: true`. Aborting `signal` ends the stream with kind `cancelled`.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>
}
