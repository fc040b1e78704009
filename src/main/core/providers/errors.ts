/**
 * One error type for every provider failure, classified so the loop and the UI know what to do:
 * retry (and when), tell the user which setting is wrong, shrink the context, or stop.
 */
export type ProviderErrorKind =
  | 'auth'
  | 'bad_request'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'cancelled'
  | 'context_too_long'
  | 'model_no_tools'

/** The provider setting a user must change to fix the error. */
export type ProviderSetting = 'apiKey' | 'model' | 'baseUrl'

const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'overloaded', 'server', 'network'])

export interface ProviderErrorDetails {
  retryable?: boolean
  status?: number
  /** The provider's error type/code, e.g. `overloaded_error`, `invalid_api_key`. */
  providerType?: string
  requestId?: string
  /** How long the server asked us to wait (retry-after-ms / retry-after). */
  retryAfterMs?: number
  setting?: ProviderSetting
  /** True when part of the answer had already streamed before the failure. */
  partial?: boolean
  cause?: unknown
}

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind
  readonly retryable: boolean
  readonly status?: number
  readonly providerType?: string
  readonly requestId?: string
  readonly retryAfterMs?: number
  readonly setting?: ProviderSetting
  readonly partial: boolean

  constructor(kind: ProviderErrorKind, message: string, details: ProviderErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'ProviderError'
    this.kind = kind
    this.retryable = details.retryable ?? RETRYABLE_KINDS.has(kind)
    this.status = details.status
    this.providerType = details.providerType
    this.requestId = details.requestId
    this.retryAfterMs = details.retryAfterMs
    this.setting = details.setting
    this.partial = details.partial ?? false
  }

  /** The same error, marked as having happened after part of the answer was streamed. */
  asPartial(): ProviderError {
    const copy = new ProviderError(this.kind, this.message, {
      retryable: this.retryable,
      status: this.status,
      providerType: this.providerType,
      requestId: this.requestId,
      retryAfterMs: this.retryAfterMs,
      setting: this.setting,
      partial: true,
      cause: this.cause
    })
    copy.stack = this.stack
    return copy
  }
}

export const cancelledError = (): ProviderError => new ProviderError('cancelled', 'The request was cancelled.')
