import { describe, expect, it } from 'vitest'
import { canonicalModelId, defaultModelId, estimateCost, findModel, MODELS } from '../../../src/shared/models'
import { resolveBaseUrl } from '../../../src/main/core/providers/base-url'

describe('model table', () => {
  it('has unique ids and sane limits', () => {
    expect(new Set(MODELS.map((m) => m.id)).size).toBe(MODELS.length)
    for (const model of MODELS) {
      expect(model.maxOutput).toBeLessThanOrEqual(model.contextWindow)
      expect(model.contextWindow).toBeGreaterThan(0)
    }
  })

  it('defaults a new provider to the newest model that calls tools and is not retiring or a preview', () => {
    for (const family of ['anthropic', 'openai'] as const) {
      const id = defaultModelId(family)
      const model = findModel(id)!
      expect(model).toMatchObject({ provider: family, supportsTools: true })
      expect(model.retiresOn).toBeUndefined()
      expect(id).not.toContain('preview')
      const earlier = MODELS.slice(0, MODELS.indexOf(model)).filter((m) => m.provider === family)
      expect(earlier.every((m) => m.retiresOn || !m.supportsTools || m.id.includes('preview'))).toBe(true)
    }
    expect(defaultModelId('anthropic')).not.toBe('claude-sonnet-4-5') // retires 2026-11-30
  })

  it('finds dated snapshots, router names and aliases', () => {
    expect(canonicalModelId('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5')
    expect(findModel('anthropic/claude-sonnet-4.5')?.id).toBe('claude-sonnet-4-5')
    expect(findModel('gpt-4o-2024-08-06')?.id).toBe('gpt-4o')
    expect(findModel('claude-sonnet-4-20250514')?.id).toBe('claude-sonnet-4-0')
    expect(findModel('claude-3-7-sonnet-latest')?.id).toBe('claude-3-7-sonnet')
    expect(findModel('llama3.1:8b')).toBeUndefined()
  })

  it('applies per-endpoint overrides over the table, or describes an unknown model', () => {
    const custom = findModel('qwen2.5-coder:32b', [
      {
        id: 'qwen2.5-coder:32b',
        contextWindow: 32_768,
        supportsTools: true,
        prices: { inputPerMTok: 0, outputPerMTok: 0 }
      }
    ])
    expect(custom).toMatchObject({ id: 'qwen2.5-coder:32b', contextWindow: 32_768, supportsTools: true })
    expect(estimateCost({ inputTokens: 1000, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }, custom)).toBe(
      0
    )
    const repriced = findModel('gpt-4o', [{ id: 'gpt-4o', prices: { inputPerMTok: 1 } }])
    expect(repriced?.prices).toMatchObject({ inputPerMTok: 1, outputPerMTok: 10 })
    expect(repriced?.contextWindow).toBe(128_000)
  })

  it('estimates cost from all four token counts', () => {
    const sonnet = findModel('claude-sonnet-4-5')
    // 1M input at $3, 0.1M output at $15, 1M cache read at $0.30, 1M cache write at $3.75
    const cost = estimateCost(
      { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 },
      sonnet
    )
    expect(cost).toBeCloseTo(3 + 1.5 + 0.3 + 3.75, 6)
  })

  it('returns null when the model or a needed price is unknown', () => {
    const usage = { inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }
    expect(estimateCost(usage, undefined)).toBeNull()
    expect(estimateCost(usage, findModel('claude-mythos-preview'))).toBeNull()
    const noCachePrice = findModel('gpt-4o-search-preview')
    expect(estimateCost(usage, noCachePrice)).not.toBeNull()
    expect(estimateCost({ ...usage, cacheReadTokens: 5 }, noCachePrice)).toBeNull()
  })
})

describe('base URLs', () => {
  it('normalises what users paste', () => {
    expect(resolveBaseUrl('anthropic', undefined)).toBe('https://api.anthropic.com')
    expect(resolveBaseUrl('anthropic', 'https://api.anthropic.com/v1/')).toBe('https://api.anthropic.com')
    expect(resolveBaseUrl('openai', undefined)).toBe('https://api.openai.com/v1')
    expect(resolveBaseUrl('openai-compatible', 'http://localhost:11434')).toBe('http://localhost:11434/v1')
    expect(resolveBaseUrl('openai-compatible', 'https://openrouter.ai/api/v1/')).toBe('https://openrouter.ai/api/v1')
  })

  it('rejects a missing or malformed URL naming the base URL setting', () => {
    expect(() => resolveBaseUrl('openai-compatible', '')).toThrow(expect.objectContaining({ setting: 'baseUrl' }))
    expect(() => resolveBaseUrl('openai', 'localhost:1234')).toThrow(/http/)
    expect(() => resolveBaseUrl('openai', 'not a url')).toThrow(
      expect.objectContaining({ kind: 'bad_request', setting: 'baseUrl' })
    )
  })
})
