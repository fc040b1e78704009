import type { AgentEvent, ModelCost } from './events'

/**
 * The task's usage per model, in the order the models were first used: each usage event belongs to
 * the model of the answer it closed (the `assistant-start` before it). Everything the task spent
 * counts, a rewound or condensed part included.
 */
export function costByModel(events: readonly AgentEvent[]): ModelCost[] {
  const byModel = new Map<string, ModelCost>()
  let model = 'unknown model'
  for (const event of events) {
    if (event.type === 'assistant-start') model = event.model
    if (event.type !== 'usage') continue
    const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd } = event.usage
    const request = { requests: 1, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd }
    byModel.set(model, { model, ...addCost(byModel.get(model) ?? NO_COST, request) })
  }
  return [...byModel.values()]
}

type Cost = Omit<ModelCost, 'model'>

const NO_COST: Cost = {
  requests: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0
}

/** Two costs added; the cost is null when either part of it is unknown. */
function addCost(a: Cost, b: Cost): Cost {
  return {
    requests: a.requests + b.requests,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd
  }
}

/** The sum over the models; the cost is null when any part of it is unknown. */
export function totalCost(models: readonly ModelCost[]): Cost {
  return models.reduce<Cost>(addCost, NO_COST)
}

/** "41k" for a token count: the rows speak in rounded thousands above 1,000. */
export function shortTokens(count: number): string {
  if (count < 1_000) return String(count)
  if (count < 10_000) return `${(count / 1_000).toFixed(1).replace(/\.0$/, '')}k`
  return `${Math.round(count / 1_000)}k`
}

/** The cost as the task bar shows it: four decimals below a dollar, cents above, or unknown. */
export function formatUsd(costUsd: number | null): string {
  if (costUsd === null) return 'cost unknown'
  return costUsd < 1 ? `$${costUsd.toFixed(4)}` : `$${costUsd.toFixed(2)}`
}

const plural = (count: number, word: string): string =>
  `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`

/** The row of a condense: "Condensed 34 messages into a summary — 41k → 6k tokens". */
export function condensedLine(event: { hiddenMessages: number; tokensBefore: number; tokensAfter?: number }): string {
  const tokens =
    event.tokensAfter === undefined
      ? `${shortTokens(event.tokensBefore)} tokens before`
      : `${shortTokens(event.tokensBefore)} → ${shortTokens(event.tokensAfter)} tokens`
  return `Condensed ${plural(event.hiddenMessages, 'message')} into a summary — ${tokens}`
}

/** The row of a checkpoint the user saved: "Checkpoint saved — 3 files changed since the last". */
export function checkpointSavedLine(changedSinceLast: number): string {
  return changedSinceLast === 0
    ? 'Checkpoint saved — no files changed since the last'
    : `Checkpoint saved — ${plural(changedSinceLast, 'file')} changed since the last`
}

/** One model's (or the total's) figures in words, as the `/cost` row and the CLI print them. */
export function costFigures(cost: Omit<ModelCost, 'model'>): string {
  const cache =
    cost.cacheReadTokens || cost.cacheWriteTokens
      ? `, cache ${cost.cacheReadTokens.toLocaleString('en-US')} read / ${cost.cacheWriteTokens.toLocaleString('en-US')} written`
      : ''
  return `${plural(cost.requests, 'request')}, ${cost.inputTokens.toLocaleString('en-US')} in / ${cost.outputTokens.toLocaleString('en-US')} out${cache}, ${formatUsd(cost.costUsd)}`
}
