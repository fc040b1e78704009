import type Anthropic from '@anthropic-ai/sdk'
import type OpenAI from 'openai'
import type { ProviderKind } from '../../../shared/contract/settings'
import type { ListedModel } from '../../../shared/models'
import { resolveBaseUrl } from './base-url'
import { classifyProviderError } from './classify-error'
import { loadAnthropicSdk, loadOpenAISdk } from './sdks'

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

/** Enough for every real catalogue (OpenAI lists ~100, OpenRouter ~400); a server that pages forever stops here. */
const MAX_MODELS = 2_000

const day = (iso: string | null | undefined): string | undefined => (iso ? iso.slice(0, 10) : undefined)

/**
 * The models a provider offers (`GET /v1/models` through the SDKs' own `models.list()`, every page),
 * with what the provider says of each: name, release and retirement dates, lifecycle. Throws
 * `ProviderError` with a message that names the setting to fix.
 */
export async function listProviderModels(target: ListModelsTarget, deps: ListModelsDeps = {}): Promise<ListedModel[]> {
  const baseUrl = resolveBaseUrl(target.kind, target.baseUrl)
  const common = {
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: deps.timeoutMs ?? 15_000,
    ...(deps.fetch ? { fetch: deps.fetch } : {})
  }
  try {
    if (target.kind === 'anthropic') return await listAnthropic(new (await loadAnthropicSdk())({ ...common, apiKey: target.apiKey }))
    // The SDK refuses an empty key; local servers ignore whatever is sent.
    return await listOpenAI(new (await loadOpenAISdk())({ ...common, apiKey: target.apiKey || 'no-key' }))
  } catch (error) {
    throw classifyProviderError(error, { providerLabel: target.label, model: target.model ?? '', baseUrl })
  }
}

/** The model ids a provider lists: the cheapest request that proves the URL is right and the key is accepted. */
export async function listModels(target: ListModelsTarget, deps: ListModelsDeps = {}): Promise<string[]> {
  return (await listProviderModels(target, deps)).map((model) => model.id)
}

async function listAnthropic(client: Anthropic): Promise<ListedModel[]> {
  const models: ListedModel[] = []
  for await (const model of client.models.list({ limit: 1000 })) {
    models.push({
      id: model.id,
      displayName: model.display_name || undefined,
      createdAt: day(model.created_at),
      retiresOn: day(model.retires_at),
      ...(model.lifecycle ? { lifecycle: model.lifecycle } : {})
    })
    if (models.length >= MAX_MODELS) break
  }
  return models
}

async function listOpenAI(client: OpenAI): Promise<ListedModel[]> {
  const models: ListedModel[] = []
  for await (const model of client.models.list()) {
    const created = typeof model.created === 'number' && model.created > 0 ? new Date(model.created * 1000).toISOString() : undefined
    models.push({ id: model.id, createdAt: day(created) })
    if (models.length >= MAX_MODELS) break
  }
  return models
}

/**
 * Whether a model name is one the provider lists, allowing the usual aliases: Anthropic's undated
 * names (`claude-sonnet-4-5` → `claude-sonnet-4-5-20250929`, `…-latest`) and Ollama's `:latest` tag.
 */
export function isListedModel(model: string, listed: readonly string[]): boolean {
  const wanted = model.trim()
  if (listed.includes(wanted)) return true
  const base = wanted.replace(/-latest$/, '')
  return listed.some((id) => id === `${wanted}:latest` || (id.startsWith(`${base}-`) && /^\d{8}$/.test(id.slice(base.length + 1))))
}
