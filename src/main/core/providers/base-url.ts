import { PROVIDERS, type ProviderKind } from '../../../shared/providers/descriptors'
import { ProviderError } from './errors'
import { WIRE_ADAPTERS } from './wire-adapters'

/**
 * The base URL to use before normalising: an explicit one (`--base-url`, or the provider's own in
 * settings) wins over the SDK's environment variable (where the descriptor names one); neither means
 * the provider's default.
 */
export function chooseBaseUrl(
  kind: ProviderKind,
  explicit: string | undefined,
  env: Record<string, string | undefined>
): string | undefined {
  const variable = PROVIDERS[kind].baseUrlEnv
  return explicit?.trim() || (variable ? env[variable]?.trim() : undefined) || undefined
}

/** The URL the provider's SDK expects (its wire adapter says how); no URL means the official endpoint. */
export function resolveBaseUrl(kind: ProviderKind, baseUrl: string | undefined): string {
  const descriptor = PROVIDERS[kind]
  const given = baseUrl?.trim() || descriptor.defaultBaseUrl
  if (!given) {
    throw new ProviderError(
      'bad_request',
      `${descriptor.nameInMessages} needs a base URL (for example ${descriptor.baseUrlExample}).`,
      { setting: 'baseUrl' }
    )
  }
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new ProviderError('bad_request', `The base URL "${given}" is not a valid URL.`, { setting: 'baseUrl' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderError('bad_request', `The base URL "${given}" must start with http:// or https://.`, {
      setting: 'baseUrl'
    })
  }
  const path = url.pathname.replace(/\/+$/, '')
  return WIRE_ADAPTERS[descriptor.wire].sdkBaseUrl(`${url.protocol}//${url.host}`, path)
}
