import { MODELS, type ModelInfo, type ModelPrices } from './models'

/** Per-endpoint corrections (custom endpoints, new models, negotiated prices); any field may be set. */
export interface ModelOverride extends Partial<Omit<ModelInfo, 'id' | 'prices'>> {
  id: string
  prices?: Partial<ModelPrices>
}

const byId = new Map(MODELS.map((model) => [model.id, model]))

/**
 * The names users and routers actually type: `anthropic/claude-sonnet-4.5` (OpenRouter),
 * `claude-sonnet-4-5-20250929` (dated snapshot), `gpt-4o-2024-08-06`, `claude-opus-4` (alias).
 */
export function canonicalModelId(id: string): string {
  let name = id.trim().toLowerCase()
  name = name.replace(/^(anthropic|openai)\//, '')
  if (name.startsWith('claude')) name = name.replace(/\./g, '-')
  name = name
    .replace(/-\d{8}$/, '')
    .replace(/-\d{4}-\d{2}-\d{2}$/, '')
    .replace(/-latest$/, '')
  if (/^claude-(opus|sonnet)-4$/.test(name)) name = `${name}-0`
  return name
}

/** Finds a model: overrides first (exact id), then the table by exact or canonical id. */
export function findModel(id: string, overrides: readonly ModelOverride[] = []): ModelInfo | undefined {
  const base = byId.get(id) ?? byId.get(canonicalModelId(id))
  const override =
    overrides.find((o) => o.id === id) ?? overrides.find((o) => canonicalModelId(o.id) === canonicalModelId(id))
  if (!override) return base
  return applyOverride(base, override)
}

function applyOverride(base: ModelInfo | undefined, override: ModelOverride): ModelInfo {
  const { prices, ...fields } = override
  return {
    provider: base?.provider ?? 'openai',
    contextWindow: base?.contextWindow ?? 128_000,
    maxOutput: base?.maxOutput ?? 8_192,
    supportsTools: base?.supportsTools ?? true,
    supportsImages: base?.supportsImages ?? false,
    supportsReasoning: base?.supportsReasoning ?? false,
    ...(base?.uncertain ? { uncertain: base.uncertain } : {}),
    ...fields,
    id: override.id,
    prices: {
      inputPerMTok: null,
      outputPerMTok: null,
      cacheReadPerMTok: null,
      cacheWritePerMTok: null,
      ...base?.prices,
      ...prices
    }
  }
}

/**
 * The model a new provider starts with: the newest (first listed) model of the family in the table
 * that calls tools, is no preview and has no announced retirement. The table is kept newest first.
 */
export function defaultModelId(family: ModelInfo['provider']): string {
  const model = MODELS.find(
    (m) => m.provider === family && m.supportsTools && !m.retiresOn && !m.id.includes('preview')
  )
  if (!model) throw new Error(`no default model for ${family} in the table`)
  return model.id
}
