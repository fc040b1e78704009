import { DEFAULT_BASE_URLS } from '../../../shared/models'
import { ProviderError } from './errors'
import type { ProviderKind } from '../../../shared/contract/settings'

/** The SDKs' own environment variables for proxies and gateways. */
export const BASE_URL_ENV: Record<ProviderKind, string> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
  'openai-compatible': 'OPENAI_BASE_URL'
}

/**
 * The base URL to use before normalising: an explicit one (`--base-url`, or the provider's own in
 * settings) wins over the SDK's environment variable; neither means the provider's default.
 */
export function chooseBaseUrl(kind: ProviderKind, explicit: string | undefined, env: Record<string, string | undefined>): string | undefined {
  return explicit?.trim() || env[BASE_URL_ENV[kind]]?.trim() || undefined
}

/**
 * The URL each SDK expects. Anthropic's SDK appends `/v1/messages`, so a pasted `…/v1` is dropped;
 * the OpenAI SDK appends `/chat/completions` to a URL that already holds `/v1`, so a bare origin
 * (how Ollama, LM Studio and vLLM are usually written) gets `/v1`.
 */
export function resolveBaseUrl(kind: ProviderKind, baseUrl: string | undefined): string {
  const given = baseUrl?.trim()
  if (!given) {
    if (kind === 'openai-compatible') {
      throw new ProviderError('bad_request', 'An OpenAI-compatible provider needs a base URL (for example http://127.0.0.1:11434/v1 for Ollama).', { setting: 'baseUrl' })
    }
    return DEFAULT_BASE_URLS[kind]
  }
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new ProviderError('bad_request', `The base URL "${given}" is not a valid URL.`, { setting: 'baseUrl' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderError('bad_request', `The base URL "${given}" must start with http:// or https://.`, { setting: 'baseUrl' })
  }
  const path = url.pathname.replace(/\/+$/, '')
  const origin = `${url.protocol}//${url.host}`
  if (kind === 'anthropic') return origin + path.replace(/\/v1$/, '')
  return origin + (path === '' ? '/v1' : path)
}
