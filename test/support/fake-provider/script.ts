/**
 * Scripted model turns, written as protocol-neutral data. The server renders one turn into the
 * Anthropic Messages or the OpenAI Chat Completions wire format, whichever endpoint was called, so
 * one script drives both SDKs.
 */

export type FakeProtocol = 'anthropic' | 'openai'

export interface FakeUsage {
  inputTokens?: number
  outputTokens?: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
}

export interface FakeToolCall {
  name: string
  input: unknown
  /** The argument text sent instead of `input` as JSON: lets a test send what a model gets wrong (cut or malformed JSON). */
  rawArguments?: string
  /** Defaults to a deterministic id (`toolu_fake_<request>_<n>` / `call_fake_<request>_<n>`). */
  id?: string
}

export interface FakeHttpError {
  status: number
  /** Error type in the body; defaults to the provider's usual type for the status. */
  type?: string
  message?: string
  /** OpenAI `code` (e.g. `context_length_exceeded`, `invalid_api_key`). */
  code?: string
  /** Seconds, sent as the `retry-after` header. */
  retryAfter?: number
  /** Milliseconds, sent as the `retry-after-ms` header. */
  retryAfterMs?: number
}

export interface FakeMidStreamError {
  /** How many content chunks (text/reasoning/tool-argument deltas) go out before the error. Default: all. */
  afterChunks?: number
  type?: string
  message?: string
}

export interface ScriptedTurn {
  /** A string is split into word chunks; an array is sent chunk by chunk as given. */
  text?: string | string[]
  reasoning?: string | string[]
  /** Anthropic thinking signature (OpenAI has none). Default: a fixed fake signature. */
  reasoningSignature?: string
  toolCalls?: FakeToolCall[]
  /** Default: `tool_use` when there are tool calls, else `end_turn`. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens'
  usage?: FakeUsage
  /** Delay before each content chunk, so a test can cancel mid-stream. Default 0. */
  chunkDelayMs?: number
  /** Destroy the connection without any response (a reset, as a flaky proxy does). */
  dropConnection?: boolean
  /** Answer with an HTTP error instead of a stream. */
  error?: FakeHttpError
  /** Start streaming, then fail inside the stream (Anthropic `event: error`, OpenAI `data: {"error":…}`). */
  errorMidStream?: FakeMidStreamError | true
  /** Send this many content chunks, then keep the connection open without ending it. */
  hangAfterChunks?: number
  /** Send this many content chunks, then close the socket mid-stream (a server or proxy dropping it). */
  cutAfterChunks?: number
  /** Model name echoed in the response; default: the requested model. */
  model?: string
  /** Which delta field carries reasoning on the OpenAI protocol; default `reasoning_content`. */
  openaiReasoningField?: 'reasoning_content' | 'reasoning'
}

/** Replays a recorded fixture from ../shared/fixtures/llm by its manifest name, e.g. `anthropic/text_plain`. */
export interface FixtureTurn {
  fixture: string
  /** Delay between SSE events (the fixture bytes are otherwise sent unchanged). */
  chunkDelayMs?: number
  /** Send the body in pieces of this many bytes, one write each, cutting lines, events and UTF-8 characters. */
  splitBytes?: number
}

export interface RecordedRequest {
  /** 0-based position among all requests this server received. */
  index: number
  protocol: FakeProtocol | 'unknown'
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: any
  rawBody: string
  /** True once the client closed the connection before the response ended (cancel). */
  aborted: boolean
}

export type TurnResult = ScriptedTurn | FixtureTurn
/** A turn may be computed from the request, e.g. to assert on the tool results the agent sent. */
export type TurnFunction = (request: RecordedRequest) => TurnResult | Promise<TurnResult>
export type FakeTurn = TurnResult | TurnFunction

export const isFixtureTurn = (turn: TurnResult): turn is FixtureTurn =>
  typeof (turn as FixtureTurn).fixture === 'string'

/** One content delta of a turn, in the order it goes on the wire. */
export type ContentChunk =
  | { kind: 'reasoning'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool-start'; toolIndex: number; id: string; name: string }
  | { kind: 'tool-args'; toolIndex: number; fragment: string }

export interface RenderPlan {
  model: string
  reasoning: string[]
  signature: string
  text: string[]
  tools: Array<{ id: string; name: string; argFragments: string[] }>
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens'
  usage: Required<FakeUsage>
  chunkDelayMs: number
  /** Content chunks after which the stream fails / hangs; null = never. */
  errorAfterChunks: number | null
  midStreamError: { type: string; message: string } | null
  hangAfterChunks: number | null
  cutAfterChunks: number | null
}

export const FAKE_SIGNATURE = 'ZmFrZS1zaWduYXR1cmUtZm9yLXRlc3Rz'

/** Word chunks keep their trailing whitespace so joining them gives the text back exactly. */
export function splitWords(text: string): string[] {
  const chunks = text.match(/\s*\S+\s*/g)
  return chunks && chunks.join('') === text ? chunks : text === '' ? [] : [text]
}

/** Splits a JSON string into three fragments, cutting inside keys and values like real traffic. */
export function splitJson(json: string): string[] {
  if (json.length < 6) return [json]
  const a = Math.floor(json.length / 3)
  const b = Math.floor((2 * json.length) / 3)
  return [json.slice(0, a), json.slice(a, b), json.slice(b)]
}

const asChunks = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : splitWords(value)

export function planTurn(
  turn: ScriptedTurn,
  context: { protocol: FakeProtocol; requestIndex: number; requestModel: string; requestBytes: number }
): RenderPlan {
  const text = asChunks(turn.text)
  const reasoning = asChunks(turn.reasoning)
  const idPrefix = context.protocol === 'anthropic' ? 'toolu_fake' : 'call_fake'
  const tools = (turn.toolCalls ?? []).map((call, n) => ({
    id: call.id ?? `${idPrefix}_${context.requestIndex}_${n}`,
    name: call.name,
    argFragments: splitJson(call.rawArguments ?? JSON.stringify(call.input ?? {}))
  }))
  const outputChars =
    [...text, ...reasoning].join('').length + tools.reduce((s, t) => s + t.argFragments.join('').length, 0)
  const mid = turn.errorMidStream === true ? {} : turn.errorMidStream
  const totalChunks = contentChunks({ reasoning, text, tools }).length
  return {
    model: turn.model ?? context.requestModel,
    reasoning,
    signature: turn.reasoningSignature ?? FAKE_SIGNATURE,
    text,
    tools,
    stopReason: turn.stopReason ?? (tools.length > 0 ? 'tool_use' : 'end_turn'),
    usage: {
      inputTokens: turn.usage?.inputTokens ?? Math.max(1, Math.ceil(context.requestBytes / 4)),
      outputTokens: turn.usage?.outputTokens ?? Math.max(1, Math.ceil(outputChars / 4)),
      cacheReadTokens: turn.usage?.cacheReadTokens ?? 0,
      cacheWriteTokens: turn.usage?.cacheWriteTokens ?? 0
    },
    chunkDelayMs: turn.chunkDelayMs ?? 0,
    errorAfterChunks: mid ? Math.min(mid.afterChunks ?? totalChunks, totalChunks) : null,
    midStreamError: mid ? { type: mid.type ?? 'overloaded_error', message: mid.message ?? 'Overloaded' } : null,
    hangAfterChunks: turn.hangAfterChunks ?? null,
    cutAfterChunks: turn.cutAfterChunks ?? null
  }
}

/** The turn's content deltas in wire order: reasoning, text, then each tool call. */
export function contentChunks(plan: Pick<RenderPlan, 'reasoning' | 'text' | 'tools'>): ContentChunk[] {
  const chunks: ContentChunk[] = []
  for (const text of plan.reasoning) chunks.push({ kind: 'reasoning', text })
  for (const text of plan.text) chunks.push({ kind: 'text', text })
  plan.tools.forEach((tool, toolIndex) => {
    chunks.push({ kind: 'tool-start', toolIndex, id: tool.id, name: tool.name })
    for (const fragment of tool.argFragments) chunks.push({ kind: 'tool-args', toolIndex, fragment })
  })
  return chunks
}
