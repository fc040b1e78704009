import { DEFAULT_BASE_URLS } from '../../../shared/models'
import { ProviderError } from './errors'
import type { ProviderKind } from '../../../shared/contract/settings'

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
