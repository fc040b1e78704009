import { estimateCost, findModel, type ModelOverride } from '../../../shared/models'
import { createProvider, type ProviderDeps } from '../providers/create-provider'
import type { ModelProvider } from '../providers/types'
import type { ProviderKind } from '../../../shared/contract/settings'
import type { ModelInfo, ProviderPort } from '../ports/loop-ports'

export interface ProviderChoice {
  kind: ProviderKind
  model: string
  baseUrl?: string
  apiKey: string
  label?: string
  modelOverrides?: readonly ModelOverride[]
  /** The provider settings' "accepts images": wins over the model table. */
  acceptsImages?: boolean
}

/** Room for one answer; long outputs are rare in tool loops and every reserved token shrinks the context budget. */
const DEFAULT_MAX_OUTPUT = 16_384

/** The model table's limits and prices for a model; unknown models get a conservative guess and unknown cost. */
export function modelInfoFor(
  model: string,
  overrides: readonly ModelOverride[] = [],
  acceptsImages?: boolean
): ModelInfo {
  const known = findModel(model, overrides)
  return {
    contextWindow: known?.contextWindow ?? null,
    maxOutputTokens: Math.min(known?.maxOutput ?? 8_192, DEFAULT_MAX_OUTPUT),
    supportsImages: acceptsImages ?? known?.supportsImages ?? false,
    costUsd: (usage) => estimateCost(usage, known)
  }
}

export function createProviderPort(choice: ProviderChoice, deps: ProviderDeps = {}): ProviderPort {
  const provider: ModelProvider = createProvider(
    {
      kind: choice.kind,
      model: choice.model,
      baseUrl: choice.baseUrl,
      apiKey: choice.apiKey,
      label: choice.label,
      modelOverrides: choice.modelOverrides
    },
    deps
  )
  return {
    provider,
    model: choice.model,
    info: modelInfoFor(choice.model, choice.modelOverrides, choice.acceptsImages)
  }
}
