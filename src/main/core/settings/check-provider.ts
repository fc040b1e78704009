import type { ProviderCheck, ProviderInput } from '../../../shared/contract/settings'
import { PROVIDERS } from '../../../shared/providers/descriptors'
import { ProviderError } from '../providers/errors'
import { isListedModel, listModels } from '../providers/list-models'
import { resolveApiKey, type SecretStore } from './secret-store'

const MODELS_SHOWN = 8

/**
 * Tries a provider as it would be saved: the typed key, else the stored one (or the environment's
 * where it may go). Proves the URL and the key by listing the models, then looks for the model.
 */
export async function checkProvider(
  input: ProviderInput,
  deps: { secrets: SecretStore; env: Record<string, string | undefined>; fetch?: typeof fetch }
): Promise<ProviderCheck> {
  const typed = input.apiKey || undefined
  const key = typed ?? (input.apiKey === '' ? undefined : (await resolveApiKey(deps.secrets, input, deps.env)).key)
  if (!key && PROVIDERS[input.kind].needsKey) {
    const variable = PROVIDERS[input.kind].envKey
    return {
      ok: false,
      setting: 'apiKey',
      models: [],
      message: `${input.label} needs an API key: enter it here${variable ? ` or set ${variable}` : ''}.`
    }
  }
  let models: string[]
  try {
    models = await listModels({ ...input, apiKey: key ?? '' }, { fetch: deps.fetch })
  } catch (error) {
    const failure = error instanceof ProviderError ? error : new ProviderError('server', String(error))
    return { ok: false, setting: failure.setting, models: [], message: failure.message }
  }
  if (models.length > 0 && !isListedModel(input.model, models)) {
    const sample = models.slice(0, MODELS_SHOWN).join(', ') + (models.length > MODELS_SHOWN ? ', …' : '')
    return {
      ok: false,
      setting: 'model',
      models,
      message: `${input.label} has no model "${input.model}". It lists ${models.length}: ${sample}.`
    }
  }
  return {
    ok: true,
    models,
    message: `Connected to ${input.label}: "${input.model}" is available (${models.length} models listed).`
  }
}
