import type { ProviderKind } from '../../../shared/contract/settings'
import type { ModelOverride } from '../../../shared/models'
import { createAnthropicProvider } from './anthropic'
import { resolveBaseUrl } from './base-url'
import { createOpenAIProvider } from './openai'
import type { RetryOptions } from './retry'
import type { ModelProvider } from './types'

export interface ProviderConfig {
  kind: ProviderKind
  /** Optional for anthropic/openai (official endpoints); required for openai-compatible. */
  baseUrl?: string
  /** May be empty for openai-compatible servers that need no key. */
  apiKey: string
  /** The default model; a request's own `model` wins when set. */
  model: string
  /** Shown in error messages ("Ollama rejected …"); defaults to the kind's name. */
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

const DEFAULT_LABELS: Record<ProviderKind, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  'openai-compatible': 'The OpenAI-compatible endpoint'
}

/** Builds the provider for a settings entry. Throws `ProviderError` (setting `baseUrl`) for a bad URL. */
export function createProvider(config: ProviderConfig, deps: ProviderDeps = {}): ModelProvider & { readonly model: string } {
  const baseUrl = resolveBaseUrl(config.kind, config.baseUrl)
  const common = {
    apiKey: config.apiKey,
    baseUrl,
    label: config.label ?? DEFAULT_LABELS[config.kind],
    modelOverrides: config.modelOverrides,
    retry: deps.retry,
    fetch: deps.fetch,
    timeoutMs: config.timeoutMs,
    idleTimeoutMs: config.idleTimeoutMs,
    headers: config.headers
  }
  const inner =
    config.kind === 'anthropic'
      ? createAnthropicProvider(common)
      : createOpenAIProvider({
          ...common,
          needsKey: config.kind === 'openai',
          includeUsage: config.includeUsage,
          id: `${config.kind}:${baseUrl}`
        })
  return {
    id: inner.id,
    model: config.model,
    stream: (request, signal) => inner.stream({ ...request, model: request.model || config.model }, signal)
  }
}
