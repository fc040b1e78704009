import type { ListedModel } from '../../../shared/models'
import { PROVIDERS, type ProviderKind } from '../../../shared/providers/descriptors'
import { resolveBaseUrl } from './base-url'
import { classifyProviderError } from './classify-error'
import { WIRE_ADAPTERS } from './wire-adapters'

export interface ListModelsTarget {
  kind: ProviderKind
  baseUrl?: string
  apiKey: string
  /** Names the provider in error messages. */
  label: string
  /** Named in errors that are about the model. */
  model?: string
}

export interface ListModelsDeps {
  fetch?: typeof fetch
  timeoutMs?: number
}

/**
 * The models a provider offers (`GET /v1/models` through the SDKs' own `models.list()`, every page),
 * with what the provider says of each: name, release and retirement dates, lifecycle. Throws
 * `ProviderError` with a message that names the setting to fix.
 */
export async function listProviderModels(target: ListModelsTarget, deps: ListModelsDeps = {}): Promise<ListedModel[]> {
  const descriptor = PROVIDERS[target.kind]
  const baseUrl = resolveBaseUrl(target.kind, target.baseUrl)
  const client = {
    baseURL: baseUrl,
    apiKey: target.apiKey,
    maxRetries: 0,
    timeout: deps.timeoutMs ?? 15_000,
    ...(deps.fetch ? { fetch: deps.fetch } : {})
  }
  try {
    const listed = await WIRE_ADAPTERS[descriptor.wire].listModels(client)
    return listed.map((model) => ({ ...model, id: withoutPrefix(model.id, descriptor.modelList.idPrefix) }))
  } catch (error) {
    throw classifyProviderError(error, { providerLabel: target.label, model: target.model ?? '', baseUrl })
  }
}

const withoutPrefix = (id: string, prefix: string): string =>
  prefix && id.startsWith(prefix) ? id.slice(prefix.length) : id

/** The model ids a provider lists: the cheapest request that proves the URL is right and the key is accepted. */
export async function listModels(target: ListModelsTarget, deps: ListModelsDeps = {}): Promise<string[]> {
  return (await listProviderModels(target, deps)).map((model) => model.id)
}

/**
 * Whether a model name is one the provider lists, allowing the usual aliases: Anthropic's undated
 * names (`claude-sonnet-4-5` → `claude-sonnet-4-5-20250929`, `…-latest`) and Ollama's `:latest` tag.
 */
export function isListedModel(model: string, listed: readonly string[]): boolean {
  const wanted = model.trim()
  if (listed.includes(wanted)) return true
  const base = wanted.replace(/-latest$/, '')
  return listed.some(
    (id) => id === `${wanted}:latest` || (id.startsWith(`${base}-`) && /^\d{8}$/.test(id.slice(base.length + 1)))
  )
}
