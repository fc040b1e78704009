/**
 * Known models: limits, capabilities and list prices in USD per million tokens. A price of `null`
 * means unknown (cost then shows as unknown; request caps still work). `uncertain` says which
 * figures were not confirmed against the provider's price page when this table was written.
 */
export type ModelProviderFamily = 'anthropic' | 'openai' | 'google'

export interface ModelPrices {
  inputPerMTok: number | null
  outputPerMTok: number | null
  cacheReadPerMTok: number | null
  /** Anthropic charges cache writes (5-minute TTL figure); OpenAI caches for free (0). */
  cacheWritePerMTok: number | null
}

export interface ModelInfo {
  id: string
  provider: ModelProviderFamily
  contextWindow: number
  maxOutput: number
  supportsTools: boolean
  supportsImages: boolean
  supportsReasoning: boolean
  prices: ModelPrices
  /**
   * How extended thinking is requested: a token budget (`thinking.type: enabled`) or `adaptive`
   * (the model decides; the SDK deprecates budgets for these models). Anthropic only; default budget.
   */
  thinkingStyle?: 'budget' | 'adaptive'
  /** Announced end-of-life date, shown in settings. */
  retiresOn?: string
  /** Figures not confirmed; shown in settings so the user can override them. */
  uncertain?: string
}

const anthropicPrices = (input: number, output: number): ModelPrices => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: input * 0.1,
  cacheWritePerMTok: input * 1.25
})

const openaiPrices = (input: number, output: number, cachedInput: number | null): ModelPrices => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: cachedInput,
  cacheWritePerMTok: 0
})

const UNKNOWN_PRICES: ModelPrices = {
  inputPerMTok: null,
  outputPerMTok: null,
  cacheReadPerMTok: null,
  cacheWritePerMTok: null
}

/** A model entry of one provider's family: tools and images always, reasoning where the family has it. */
const family =
  (provider: ModelProviderFamily, supportsReasoning: boolean) =>
  (
    id: string,
    contextWindow: number,
    maxOutput: number,
    prices: ModelPrices,
    extra: Partial<ModelInfo> = {}
  ): ModelInfo => ({
    id,
    provider,
    contextWindow,
    maxOutput,
    supportsTools: true,
    supportsImages: true,
    supportsReasoning,
    prices,
    ...extra
  })

const claude = family('anthropic', true)
const gpt = family('openai', false)

/** Gemini bills cached input at a quarter of the input price and charges no cache write (implicit caching). */
const geminiPrices = (input: number, output: number): ModelPrices => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: input * 0.25,
  cacheWritePerMTok: 0
})

const gemini = (id: string, prices: ModelPrices, extra: Partial<ModelInfo> = {}): ModelInfo => ({
  id,
  provider: 'google',
  contextWindow: 1_048_576,
  maxOutput: 65_536,
  supportsTools: true,
  supportsImages: true,
  supportsReasoning: true,
  prices,
  uncertain: 'prices for prompts up to 200k tokens (longer prompts cost more); cache prices not confirmed',
  ...extra
})

export const MODELS: readonly ModelInfo[] = [
  // Anthropic
  claude('claude-opus-4-6', 200_000, 64_000, anthropicPrices(5, 25), {
    thinkingStyle: 'adaptive',
    uncertain: 'newer than the table author knew; limits and prices assumed equal to claude-opus-4-5'
  }),
  claude('claude-sonnet-4-6', 200_000, 64_000, anthropicPrices(3, 15), {
    uncertain: 'newer than the table author knew; limits and prices assumed equal to claude-sonnet-4-5'
  }),
  claude('claude-mythos-preview', 200_000, 64_000, UNKNOWN_PRICES, {
    thinkingStyle: 'adaptive',
    uncertain: 'preview model: limits assumed, prices unknown'
  }),
  claude('claude-opus-4-5', 200_000, 64_000, anthropicPrices(5, 25)),
  claude('claude-sonnet-4-5', 200_000, 64_000, anthropicPrices(3, 15), { retiresOn: '2026-11-30' }),
  claude('claude-haiku-4-5', 200_000, 64_000, anthropicPrices(1, 5)),
  claude('claude-opus-4-1', 200_000, 32_000, anthropicPrices(15, 75)),
  claude('claude-opus-4-0', 200_000, 32_000, anthropicPrices(15, 75)),
  claude('claude-sonnet-4-0', 200_000, 64_000, anthropicPrices(3, 15)),
  claude('claude-3-7-sonnet', 200_000, 64_000, anthropicPrices(3, 15)),
  claude('claude-3-5-haiku', 200_000, 8_192, anthropicPrices(0.8, 4), { supportsReasoning: false }),
  // OpenAI
  gpt('gpt-5', 400_000, 128_000, openaiPrices(1.25, 10, 0.125), { supportsReasoning: true }),
  gpt('gpt-5-mini', 400_000, 128_000, openaiPrices(0.25, 2, 0.025), { supportsReasoning: true }),
  gpt('gpt-5-nano', 400_000, 128_000, openaiPrices(0.05, 0.4, 0.005), { supportsReasoning: true }),
  gpt('gpt-4.1', 1_047_576, 32_768, openaiPrices(2, 8, 0.5)),
  gpt('gpt-4.1-mini', 1_047_576, 32_768, openaiPrices(0.4, 1.6, 0.1)),
  gpt('gpt-4.1-nano', 1_047_576, 32_768, openaiPrices(0.1, 0.4, 0.025)),
  gpt('gpt-4o', 128_000, 16_384, openaiPrices(2.5, 10, 1.25)),
  gpt('gpt-4o-mini', 128_000, 16_384, openaiPrices(0.15, 0.6, 0.075)),
  gpt('o3', 200_000, 100_000, openaiPrices(2, 8, 0.5), { supportsReasoning: true }),
  gpt('o4-mini', 200_000, 100_000, openaiPrices(1.1, 4.4, 0.275), { supportsReasoning: true }),
  gpt('o3-mini', 200_000, 100_000, openaiPrices(1.1, 4.4, 0.55), { supportsReasoning: true, supportsImages: false }),
  // Chat models without function calling: Modus refuses them with a clear error instead of failing mid-task.
  gpt('o1-mini', 128_000, 65_536, openaiPrices(1.1, 4.4, 0.55), {
    supportsReasoning: true,
    supportsTools: false,
    supportsImages: false
  }),
  gpt('gpt-4o-search-preview', 128_000, 16_384, openaiPrices(2.5, 10, null), { supportsTools: false }),
  // Google (through its OpenAI-compatible endpoint)
  gemini('gemini-2.5-pro', geminiPrices(1.25, 10)),
  gemini('gemini-2.5-flash', geminiPrices(0.3, 2.5)),
  gemini('gemini-2.5-flash-lite', geminiPrices(0.1, 0.4))
]
