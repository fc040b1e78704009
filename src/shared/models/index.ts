export { MODELS, type ModelInfo, type ModelPrices, type ModelProviderFamily } from './models'
export { canonicalModelId, defaultModelId, findModel, type ModelOverride } from './lookup'
export { estimateCost, type TokenUsage } from './cost'
export { DEFAULT_BASE_URLS, OPENAI_COMPATIBLE_PRESETS } from './endpoints'
