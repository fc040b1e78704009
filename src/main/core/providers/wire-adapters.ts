import type Anthropic from '@anthropic-ai/sdk'
import type OpenAI from 'openai'
import type { ListedModel, ModelOverride } from '../../../shared/models'
import type { ProviderDescriptor, WireProtocol } from '../../../shared/providers/descriptors'
import { createAnthropicProvider } from './anthropic'
import { createOpenAIProvider } from './openai'
import type { RetryOptions } from './retry'
import { loadAnthropicSdk, loadOpenAISdk } from './sdks'
import type { ModelProvider } from './types'

/** What every provider is built from: the descriptor's facts plus one settings entry's. */
export interface WireProviderOptions {
  descriptor: ProviderDescriptor
  /** Already in the form `sdkBaseUrl` gives. */
  baseUrl: string
  apiKey: string
  label: string
  id: string
  modelOverrides?: readonly ModelOverride[]
  retry?: RetryOptions
  fetch?: typeof fetch
  timeoutMs?: number
  idleTimeoutMs?: number
  headers?: Record<string, string>
  /** Overrides the descriptor's `streamUsage` (a server that rejects `stream_options`). */
  includeUsage?: boolean
}

export interface ListClientOptions {
  baseURL: string
  apiKey: string
  maxRetries: number
  timeout: number
  fetch?: typeof fetch
}

/** One per HTTP API: how its SDK wants the base URL, how to stream a turn, how to list models. */
export interface WireAdapter {
  /** The URL the SDK expects, from a user's URL split into origin and path (no trailing slash). */
  sdkBaseUrl(origin: string, path: string): string
  createProvider(options: WireProviderOptions): ModelProvider
  listModels(client: ListClientOptions): Promise<ListedModel[]>
}

/** Enough for every real catalogue (OpenAI lists ~100, OpenRouter ~400); a server that pages forever stops here. */
const MAX_MODELS = 2_000

const day = (iso: string | null | undefined): string | undefined => (iso ? iso.slice(0, 10) : undefined)

export const WIRE_ADAPTERS: Readonly<Record<WireProtocol, WireAdapter>> = {
  anthropic: {
    // The SDK appends `/v1/messages`, so a pasted `…/v1` is dropped.
    sdkBaseUrl: (origin, path) => origin + path.replace(/\/v1$/, ''),
    createProvider: ({ descriptor: _descriptor, includeUsage: _includeUsage, ...options }) =>
      createAnthropicProvider(options),
    listModels: async (client) => listAnthropic(new (await loadAnthropicSdk())(client))
  },
  openai: {
    // The SDK appends `/chat/completions` to a URL that already holds `/v1`, so a bare origin (how
    // Ollama, LM Studio and vLLM are usually written) gets `/v1`.
    sdkBaseUrl: (origin, path) => origin + (path === '' ? '/v1' : path),
    createProvider: ({ descriptor, includeUsage, ...options }) =>
      createOpenAIProvider({
        ...options,
        needsKey: descriptor.needsKey,
        maxTokensField: descriptor.capabilities.maxTokensField,
        includeUsage: includeUsage ?? descriptor.capabilities.streamUsage
      }),
    // The SDK refuses an empty key; local servers ignore whatever is sent.
    listModels: async (client) =>
      listOpenAI(new (await loadOpenAISdk())({ ...client, apiKey: client.apiKey || 'no-key' }))
  }
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
    const created =
      typeof model.created === 'number' && model.created > 0 ? new Date(model.created * 1000).toISOString() : undefined
    models.push({ id: model.id, createdAt: day(created) })
    if (models.length >= MAX_MODELS) break
  }
  return models
}
