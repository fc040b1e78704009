import { findModel, MODELS, type ModelChoice, type ModelInfo } from '../../../../shared/models'
import type { ProviderKind } from '../../../../shared/contract/settings'
import { PROVIDERS } from '../../../../shared/providers/descriptors'

/** The table's models for the provider's family: suggested only when the provider's own list is not available. */
export const suggestedModels = (kind: ProviderKind): string[] =>
  MODELS.filter((model) => model.provider === PROVIDERS[kind].suggestFrom).map((m) => m.id)

const tokens = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${Math.round(n / 1000)}k`)
const dollars = (n: number): string => `$${Number.isInteger(n) ? n : n.toFixed(2)}`

/** The picker's text for one listed model: its name and, when known, its retirement date. */
export function choiceLabel(choice: ModelChoice): string {
  const parts = [choice.displayName && choice.displayName !== choice.id ? choice.displayName : null]
  if (choice.lifecycle === 'deprecated') parts.push('deprecated')
  if (choice.retiresOn) parts.push(`retires ${choice.retiresOn}`)
  if (!choice.known) parts.push('not in the price table')
  return parts.filter(Boolean).join(' · ')
}

/**
 * One line about a model: context window, prices, tool support and retirement; honest when it is not in
 * the table. `listed` is what the provider said about it, whose retirement date wins over the table's.
 */
export function describeModel(id: string, listed?: ModelChoice): string {
  const model: ModelInfo | undefined = findModel(id)
  const retiresOn = listed?.retiresOn ?? model?.retiresOn
  const retiring = retiresOn ? ` · retires ${retiresOn}` : ''
  if (!model) return `not in the model table: price unknown (cost shows as unknown; request caps still work)${retiring}`
  const parts = [`${tokens(model.contextWindow)} context`]
  const { inputPerMTok, outputPerMTok } = model.prices
  parts.push(
    inputPerMTok === null || outputPerMTok === null
      ? 'price unknown'
      : `${dollars(inputPerMTok)} in / ${dollars(outputPerMTok)} out per M tokens`
  )
  if (!model.supportsTools) parts.push('no tool calling')
  if (model.uncertain) parts.push(`unconfirmed: ${model.uncertain}`)
  return parts.join(' · ') + retiring
}
