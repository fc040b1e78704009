import type { ModelInfo } from './models'

/** Token counts as providers report them; `inputTokens` excludes cached reads and writes. */
export interface TokenUsage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

/** Cost in USD, or null when the model or a price needed for a non-zero count is unknown. */
export function estimateCost(usage: TokenUsage, model: ModelInfo | undefined): number | null {
  if (!model) return null
  const parts: Array<[number, number | null]> = [
    [usage.inputTokens, model.prices.inputPerMTok],
    [usage.outputTokens, model.prices.outputPerMTok],
    [usage.cacheReadTokens, model.prices.cacheReadPerMTok],
    [usage.cacheWriteTokens, model.prices.cacheWritePerMTok]
  ]
  let total = 0
  for (const [tokens, pricePerMTok] of parts) {
    if (tokens === 0) continue
    if (pricePerMTok === null) return null
    total += (tokens * pricePerMTok) / 1_000_000
  }
  return total
}
