import type { ProviderKind } from '../../../shared/contract/settings'
import type { ModelOverride } from '../../../shared/models'
import { PROVIDERS } from '../../../shared/providers/descriptors'
import { resolveBaseUrl } from './base-url'
import type { RetryOptions } from './retry'
import type { ModelProvider } from './types'
import { WIRE_ADAPTERS } from './wire-adapters'

export interface ProviderConfig {
  kind: ProviderKind
  /** Optional where the descriptor has an official endpoint; required otherwise (openai-compatible). */
  baseUrl?: string
  /** May be empty for openai-compatible servers that need no key. */
  apiKey: string
  /** The default model; a request's own `model` wins when set. */
  model: string
  /** Shown in error messages ("Ollama rejected …"); defaults to the descriptor's `nameInMessages`. */
  label?: string
  modelOverrides?: readonly ModelOverride[]
  /** Extra headers, e.g. OpenRouter's `HTTP-Referer` / `X-Title`. */
  headers?: Record<string, string>
  timeoutMs?: number
  /** A started stream silent this long is dropped; default 180 s. */
  idleTimeoutMs?: number
  /** OpenAI protocol only: send `stream_options.include_usage` (default true). */
  includeUsage?: boolean
}

export interface ProviderDeps {
  retry?: RetryOptions
  fetch?: typeof fetch
}

/** Builds the provider for a settings entry. Throws `ProviderError` (setting `baseUrl`) for a bad URL. */
export function createProvider(
  config: ProviderConfig,
  deps: ProviderDeps = {}
): ModelProvider & { readonly model: string } {
  const descriptor = PROVIDERS[config.kind]
  const baseUrl = resolveBaseUrl(config.kind, config.baseUrl)
  const inner = WIRE_ADAPTERS[descriptor.wire].createProvider({
    descriptor,
    id: `${config.kind}:${baseUrl}`,
    apiKey: config.apiKey,
    baseUrl,
    label: config.label ?? descriptor.nameInMessages,
    modelOverrides: config.modelOverrides,
    retry: deps.retry,
    fetch: deps.fetch,
    timeoutMs: config.timeoutMs,
    idleTimeoutMs: config.idleTimeoutMs,
    headers: config.headers,
    includeUsage: config.includeUsage
  })
  return {
    id: inner.id,
    model: config.model,
    stream: (request, signal) => inner.stream({ ...request, model: request.model || config.model }, signal)
  }
}
