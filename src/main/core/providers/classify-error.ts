import { ProviderError, type ProviderErrorDetails } from './errors'
import { loadedSdks } from './sdks'

/** Where the failing request went, to name the wrong setting in the message. */
export interface ErrorContext {
  /** "Anthropic", "OpenAI", or the user's label for a compatible endpoint. */
  providerLabel: string
  model: string
  baseUrl: string
  signal?: AbortSignal
}

type HeaderSource = { get?: (name: string) => string | null } | Record<string, unknown> | undefined

const NO_TOOLS =
  /does not support tools|support tool use|tool use is not supported|tools? (?:are|is) not supported|not support (?:function|tool) call|no endpoints found that support tool/i
const CONTEXT_TOO_LONG =
  /prompt is too long|context[ _]length|maximum context|context window|too many tokens|exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context|input length and `?max_tokens`? exceed/i

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get: (n: string) => string | null }).get(name) ?? undefined
  }
  const value = (headers as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : undefined
}

/** `retry-after-ms` first, then `retry-after` (seconds or an HTTP date), as the SDKs read them. */
export function retryAfterMsFrom(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(header(headers, 'retry-after-ms') ?? '')
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms)
  const raw = header(headers, 'retry-after')
  if (raw === undefined) return undefined
  const seconds = Number.parseFloat(raw)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000)
  const date = Date.parse(raw)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

interface ApiErrorLike {
  status?: number
  headers?: HeaderSource
  error?: unknown
  type?: string | null
  code?: string | null
  requestID?: string | null
  message?: string
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined

function describeApiError(error: ApiErrorLike) {
  const body = asRecord(error.error)
  // Anthropic puts the whole body in `error` ({type, error: {type, message}}); OpenAI the inner object.
  const inner = asRecord(body?.error) ?? body
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  const apiMessage = text(inner?.message) ?? error.message ?? 'unknown error'
  const type = error.type ?? text(inner?.type)
  const code = error.code ?? text(inner?.code)
  return { apiMessage, type, code }
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_INVALID_URL', 'EHOSTUNREACH'])

type ErrorClassName = 'APIError' | 'APIUserAbortError' | 'APIConnectionError' | 'APIConnectionTimeoutError'

/** Whether the error is one of either SDK's error classes of this name (only a loaded SDK can have thrown it). */
function isSdkError(error: unknown, name: ErrorClassName): boolean {
  const { anthropic, openai } = loadedSdks()
  return (
    (anthropic !== undefined && error instanceof anthropic[name]) ||
    (openai !== undefined && error instanceof openai[name])
  )
}

const isAbort = (error: unknown): boolean =>
  isSdkError(error, 'APIUserAbortError') || (error as { name?: string } | undefined)?.name === 'AbortError'

const isTimeout = (error: unknown): boolean => isSdkError(error, 'APIConnectionTimeoutError')

const isConnectionError = (error: unknown): boolean => isSdkError(error, 'APIConnectionError')

/** Codes of a socket that went away mid-exchange (undici's and the OS's). */
const DROPPED_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED'])

/**
 * The connection was dropped while the answer streamed: undici throws `TypeError: terminated` with
 * the socket error as its cause ("other side closed"). Returns the innermost reason, or null.
 */
function droppedConnection(error: unknown): string | null {
  let current = error as { cause?: unknown; code?: unknown; message?: unknown; name?: unknown } | undefined
  let dropped = false
  let reason = ''
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    if (
      (current.name === 'TypeError' && current.message === 'terminated') ||
      (typeof current.code === 'string' && DROPPED_CODES.has(current.code))
    )
      dropped = true
    if (typeof current.message === 'string' && current.message) reason = current.message
    current = current.cause as typeof current
  }
  return dropped ? reason || 'terminated' : null
}

const isApiError = (error: unknown): error is ApiErrorLike => isSdkError(error, 'APIError')

/** The innermost reason (e.g. ECONNREFUSED behind "fetch failed" behind "Connection error."). */
function rootReason(error: unknown): string {
  let current = error as { cause?: unknown; code?: string; message?: string } | undefined
  let reason = current?.message ?? String(error)
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string') return current.code
    if (current.message) reason = current.message
    current = current.cause as typeof current
  }
  return reason
}

/** Turns whatever an SDK threw into a `ProviderError` whose message says what to do. */
export function classifyProviderError(error: unknown, context: ErrorContext): ProviderError {
  if (error instanceof ProviderError) return error
  if (context.signal?.aborted || isAbort(error))
    return new ProviderError('cancelled', 'The request was cancelled.', { cause: error })
  if (isTimeout(error)) {
    return new ProviderError('network', `${context.providerLabel} did not answer in time (${context.baseUrl}).`, {
      cause: error
    })
  }
  if (isConnectionError(error)) {
    const reason = rootReason(error)
    return new ProviderError(
      'network',
      `Could not reach ${context.providerLabel} at ${context.baseUrl} (${reason}). Check the base URL and that the server is running.`,
      // Nothing listening or no such host: waiting will not fix a wrong URL or a stopped server.
      { cause: error, setting: 'baseUrl', retryable: !UNREACHABLE_CODES.has(reason) }
    )
  }
  if (isApiError(error)) return classifyApiError(error, context)
  const dropped = droppedConnection(error)
  if (dropped) {
    // A server or proxy closing the stream is transient, like a reset before the answer began.
    return new ProviderError(
      'network',
      `The connection to ${context.providerLabel} was lost mid-answer (${dropped}).`,
      { cause: error, retryable: true }
    )
  }
  if (error instanceof SyntaxError) {
    // The SDK could not read a server-sent event: a proxy or a server that speaks the protocol wrongly.
    return new ProviderError(
      'server',
      `${context.providerLabel} sent a streamed message that is not valid JSON (${context.baseUrl}); the answer stopped there. A proxy or gateway in between may be rewriting the stream.`,
      { cause: error, retryable: false }
    )
  }
  const message = error instanceof Error ? error.message : String(error)
  return new ProviderError('server', `${context.providerLabel} request failed: ${message}`, {
    cause: error,
    retryable: false
  })
}

function classifyApiError(error: ApiErrorLike, context: ErrorContext): ProviderError {
  const { apiMessage, type, code } = describeApiError(error)
  const status = error.status
  const shouldRetry = header(error.headers, 'x-should-retry')
  const details: ProviderErrorDetails = {
    status,
    providerType: code ?? type,
    requestId: error.requestID ?? undefined,
    retryAfterMs: retryAfterMsFrom(error.headers),
    cause: error,
    ...(shouldRetry === 'false' ? { retryable: false } : {})
  }
  const who = context.providerLabel
  const tag = [status, type].filter((part) => part !== undefined && part !== null).join(' ')
  const model = context.model

  if (status !== undefined && status >= 400 && status < 500 && NO_TOOLS.test(apiMessage)) {
    return new ProviderError(
      'model_no_tools',
      `Model "${model}" does not support tool calling (${who}: ${apiMessage}). Modus needs a model with tools: choose another model.`,
      { ...details, setting: 'model', retryable: false }
    )
  }
  if (
    status === 413 ||
    code === 'context_length_exceeded' ||
    (status !== undefined && status < 500 && CONTEXT_TOO_LONG.test(apiMessage))
  ) {
    return new ProviderError(
      'context_too_long',
      `The conversation is too long for model "${model}" (${who}: ${apiMessage}).`,
      { ...details, retryable: false }
    )
  }
  switch (status) {
    case 401:
      return new ProviderError(
        'auth',
        `${who} rejected the API key (${tag}: ${apiMessage}). Check the API key in the provider settings.`,
        { ...details, setting: 'apiKey', retryable: false }
      )
    case 402:
    case 403:
      return new ProviderError(
        'auth',
        `${who} refused the request (${tag}: ${apiMessage}). Check that the API key has access to model "${model}" and that billing is set up.`,
        { ...details, setting: 'apiKey', retryable: false }
      )
    case 404:
      return notFound(apiMessage, code, type, details, context)
    case 429:
      return new ProviderError('rate_limit', `${who} rate limit reached (${tag}): ${apiMessage}`, details)
    case 529:
      return new ProviderError('overloaded', `${who} is overloaded (${tag}). Retrying usually helps.`, details)
    case undefined:
      return midStreamError(apiMessage, type, details, who)
  }
  if (status === 408 || status === 409 || status >= 500) {
    if (type === 'overloaded_error') return new ProviderError('overloaded', `${who} is overloaded (${tag}).`, details)
    return new ProviderError('server', `${who} server error (${tag}): ${apiMessage}`, details)
  }
  const setting = /\bmodel\b/i.test(apiMessage) ? 'model' : undefined
  const hint = setting === 'model' ? ` Check the model name "${model}".` : ''
  return new ProviderError(
    'bad_request',
    `${who} rejected the request (${tag}): ${apiMessage.replace(/\.$/, '')}.${hint}`,
    { ...details, setting, retryable: false }
  )
}

function notFound(
  apiMessage: string,
  code: string | undefined,
  type: string | undefined,
  details: ProviderErrorDetails,
  context: ErrorContext
): ProviderError {
  const aboutModel = code === 'model_not_found' || /\bmodel\b/i.test(apiMessage)
  if (aboutModel) {
    return new ProviderError(
      'bad_request',
      `Model "${context.model}" was not found at ${context.baseUrl} (404 ${type ?? ''}: ${apiMessage}). Check the model name.`,
      { ...details, setting: 'model', retryable: false }
    )
  }
  return new ProviderError(
    'bad_request',
    `${context.baseUrl} answered 404 (${apiMessage}). Check the base URL: OpenAI-compatible servers usually end in /v1, Anthropic's is the bare origin.`,
    { ...details, setting: 'baseUrl', retryable: false }
  )
}

/** An error event inside a 200 stream has no status; its type says what happened. */
function midStreamError(
  apiMessage: string,
  type: string | undefined,
  details: ProviderErrorDetails,
  who: string
): ProviderError {
  if (type === 'overloaded_error')
    return new ProviderError('overloaded', `${who} became overloaded mid-answer (${apiMessage}).`, details)
  if (type === 'rate_limit_error' || type === 'rate_limit_exceeded')
    return new ProviderError('rate_limit', `${who} rate limit hit mid-answer (${apiMessage}).`, details)
  if (type && CONTEXT_TOO_LONG.test(apiMessage))
    return new ProviderError('context_too_long', `${who}: ${apiMessage}`, { ...details, retryable: false })
  if (type === 'invalid_request_error')
    return new ProviderError('bad_request', `${who} rejected the request mid-answer: ${apiMessage}`, {
      ...details,
      retryable: false
    })
  return new ProviderError('server', `${who} failed mid-answer (${type ?? 'error'}): ${apiMessage}`, details)
}
