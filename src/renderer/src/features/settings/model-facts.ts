import { findModel, MODELS, type ModelInfo } from '../../../../shared/models'
import type { ProviderKind } from '../../../../shared/contract/settings'

/** Models to suggest in the model field: the known table for the provider's family. */
export const suggestedModels = (kind: ProviderKind): string[] =>
  MODELS.filter((model) => (kind === 'anthropic' ? model.provider === 'anthropic' : model.provider === 'openai')).map((m) => m.id)

const tokens = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${Math.round(n / 1000)}k`)
const dollars = (n: number): string => `$${Number.isInteger(n) ? n : n.toFixed(2)}`

/** One line about a model: context window, prices, tool support; honest when it is not in the table. */
export function describeModel(id: string): string {
  const model: ModelInfo | undefined = findModel(id)
  if (!model) return 'not in the model table: price unknown (cost shows as unknown; request caps still work)'
  const parts = [`${tokens(model.contextWindow)} context`]
  const { inputPerMTok, outputPerMTok } = model.prices
  parts.push(
    inputPerMTok === null || outputPerMTok === null
      ? 'price unknown'
      : `${dollars(inputPerMTok)} in / ${dollars(outputPerMTok)} out per M tokens`
  )
  if (!model.supportsTools) parts.push('no tool calling')
  if (model.retiresOn) parts.push(`retires ${model.retiresOn}`)
  if (model.uncertain) parts.push(`unconfirmed: ${model.uncertain}`)
  return parts.join(' · ')
}
