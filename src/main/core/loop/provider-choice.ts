import { UserFacingError } from '../../../shared/contract/dispatch'
import { PROVIDERS } from '../../../shared/providers/descriptors'
import { chooseBaseUrl } from '../providers/base-url'
import type { ProviderDeps } from '../providers/create-provider'
import { resolveApiKey, type KeyTarget, type SecretStore } from '../settings/secret-store'
import type { SettingsStore } from '../settings/settings-store'
import type { ProviderPort } from '../ports/loop-ports'
import { createProviderPort, type ProviderChoice } from './provider-port'

export interface ProviderChoiceDeps {
  settings: SettingsStore
  secrets: SecretStore
  env: Record<string, string | undefined>
  /** A provider chosen outside settings (CLI flags); wins over the active provider. */
  override?: Omit<ProviderChoice, 'apiKey'> & { apiKey?: string }
  providerDeps?: ProviderDeps
}

/**
 * The provider a task runs with: the CLI's override, else the one it names or the active one from
 * settings, with its key. Throws a UserFacingError naming the setting to fix.
 */
export function createProviderChoice(
  deps: ProviderChoiceDeps
): (choice: { providerId?: string }) => Promise<ProviderPort> {
  const { env } = deps
  const keyFor = (target: KeyTarget) =>
    resolveApiKey(deps.secrets, target, env).catch((error: unknown) => {
      throw new UserFacingError('secrets_broken', error instanceof Error ? error.message : String(error))
    })

  return async ({ providerId }) => {
    const override = deps.override
    if (override && !providerId) {
      const target = {
        id: `cli-${override.kind}`,
        kind: override.kind,
        baseUrl: override.baseUrl,
        baseUrlFromUser: true
      }
      const key = override.apiKey ?? (await keyFor(target)).key
      return createProviderPort(
        { ...override, baseUrl: chooseBaseUrl(override.kind, override.baseUrl, env), apiKey: key ?? '' },
        deps.providerDeps
      )
    }
    const settings = deps.settings.get()
    const id = providerId ?? settings.activeProviderId
    const provider = settings.providers.find((p) => p.id === id)
    if (!provider) {
      throw new UserFacingError(
        'no_provider',
        'No model provider is set up: add one in Settings (kind, model and API key) and make it active.'
      )
    }
    const { key } = await keyFor(provider)
    const { needsKey, envKey } = PROVIDERS[provider.kind]
    if (!key && needsKey) {
      throw new UserFacingError(
        'no_api_key',
        provider.baseUrl || !envKey
          ? `The provider "${provider.label}" has no API key: add one in Settings (environment keys go only to the official endpoint).`
          : `The provider "${provider.label}" has no API key: add one in Settings or set ${envKey}.`
      )
    }
    const baseUrl = chooseBaseUrl(provider.kind, provider.baseUrl, env)
    return createProviderPort(
      {
        kind: provider.kind,
        model: provider.model,
        baseUrl,
        apiKey: key ?? '',
        label: provider.label,
        acceptsImages: provider.acceptsImages
      },
      deps.providerDeps
    )
  }
}
