import { findModel, type ModelOverride } from '../../../shared/models'
import { ProviderError } from './errors'
import type { ModelRequest } from './types'

/** Fails fast, before any network traffic, on problems the settings alone reveal. */
export function checkRequestAgainstModel(
  request: ModelRequest,
  config: { apiKey: string; label: string; modelOverrides?: readonly ModelOverride[]; needsKey: boolean }
): void {
  if (config.needsKey && config.apiKey.trim() === '') {
    throw new ProviderError('auth', `No API key is set for ${config.label}. Add it in the provider settings.`, {
      setting: 'apiKey'
    })
  }
  if (request.model.trim() === '') {
    throw new ProviderError(
      'bad_request',
      `No model is set for ${config.label}. Choose a model in the provider settings.`,
      { setting: 'model' }
    )
  }
  const model = findModel(request.model, config.modelOverrides)
  if (model && !model.supportsTools && request.tools.length > 0) {
    throw new ProviderError(
      'model_no_tools',
      `Model "${request.model}" does not support tool calling, which Modus needs. Choose another model.`,
      { setting: 'model' }
    )
  }
}
