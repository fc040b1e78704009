import { findModel } from './lookup'

/** A model as the provider's own `GET /v1/models` names it (Anthropic and OpenAI shapes reduced to one). */
export interface ListedModel {
  id: string
  displayName?: string
  /** Release time (ISO date), when the provider says. */
  createdAt?: string
  /** Scheduled retirement (YYYY-MM-DD), when the provider says. */
  retiresOn?: string
  /** Anthropic's lifecycle stage; other providers do not say. */
  lifecycle?: 'active' | 'deprecated' | 'retired'
}

/** One line of the model picker: what the provider lists, with the local table's limits and prices beside it. */
export interface ModelChoice extends ListedModel {
  /** The local table knows its context window and prices. */
  known: boolean
  contextWindow: number | null
}

/**
 * The provider's list as the picker shows it: retired models dropped, the newest first, the retiring
 * date taken from the provider or else from the table. Models the table does not know stay choosable.
 */
export function toModelChoices(listed: readonly ListedModel[]): ModelChoice[] {
  const seen = new Set<string>()
  const choices: ModelChoice[] = []
  for (const model of listed) {
    if (model.lifecycle === 'retired' || seen.has(model.id)) continue
    seen.add(model.id)
    const table = findModel(model.id)
    const retiresOn = model.retiresOn ?? table?.retiresOn
    choices.push({
      ...model,
      ...(retiresOn ? { retiresOn } : {}),
      known: Boolean(table),
      contextWindow: table?.contextWindow ?? null
    })
  }
  // Stable: providers that give no dates (compatible servers) keep their own order.
  return choices.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))
}

/**
 * When the model retires, if anyone knows: the provider's list first (it is the newer word), then the table.
 * Returns YYYY-MM-DD or undefined.
 */
export function retirementDate(id: string, listed: readonly ListedModel[] = []): string | undefined {
  return listed.find((m) => m.id === id)?.retiresOn ?? findModel(id)?.retiresOn
}
