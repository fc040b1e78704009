import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import type { ProviderKind } from '../../../shared/contract/settings'
import { resolveBaseUrl } from './base-url'
import { classifyProviderError } from './classify-error'

export interface ListModelsTarget {
  kind: ProviderKind
  baseUrl?: string
  apiKey: string
  /** Names the provider in error messages. */
  label: string
  /** Named in errors that are about the model. */
  model: string
}

/**
 * The model ids a provider lists (`GET /v1/models`): the cheapest request that proves the URL is
 * right and the key is accepted. Throws `ProviderError` with a message that names the setting.
 */
export async function listModels(
  target: ListModelsTarget,
  deps: { fetch?: typeof fetch; timeoutMs?: number } = {}
): Promise<string[]> {
  const baseUrl = resolveBaseUrl(target.kind, target.baseUrl)
  const common = {
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: deps.timeoutMs ?? 15_000,
    ...(deps.fetch ? { fetch: deps.fetch } : {})
  }
  try {
    if (target.kind === 'anthropic') {
      const page = await new Anthropic({ ...common, apiKey: target.apiKey }).models.list({ limit: 1000 })
      return page.data.map((model) => model.id)
    }
    // The SDK refuses an empty key; local servers ignore whatever is sent.
    const page = await new OpenAI({ ...common, apiKey: target.apiKey || 'no-key' }).models.list()
    return page.data.map((model) => model.id)
  } catch (error) {
    throw classifyProviderError(error, { providerLabel: target.label, model: target.model, baseUrl })
  }
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
