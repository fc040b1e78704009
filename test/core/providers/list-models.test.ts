import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { listProviderModels } from '../../../src/main/core/providers/list-models'
import { createFileSecretStore, secretNameForProvider } from '../../../src/main/core/settings/secret-store'
import { createSettingsHandlers } from '../../../src/main/core/settings/settings-handlers'
import { createSettingsStore } from '../../../src/main/core/settings/settings-store'
import { retirementDate, toModelChoices } from '../../../src/shared/models'
import { apiKeyOf, startFakeProvider, type FakeProvider } from '../../support/fake-provider'

let fake: FakeProvider | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const modelRequests = (f: FakeProvider) => f.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models')

describe('models from the provider', () => {
  it('Anthropic: every page of models.list(), with display names, dates and lifecycle', async () => {
    fake = await startFakeProvider({ name: 'anthropic models' })
    const models = await listProviderModels({
      kind: 'anthropic',
      baseUrl: fake.anthropicBaseUrl,
      apiKey: 'k',
      label: 'Anthropic'
    })
    expect(models.map((m) => m.id)).toEqual([
      'claude-sonnet-4-6',
      'claude-sonnet-4-5-20250929',
      'claude-opus-4-1-20250805',
      'gpt-4o',
      'gpt-5',
      'qwen3-coder'
    ])
    expect(models[1]).toMatchObject({
      displayName: 'Claude Sonnet 4.5',
      retiresOn: '2026-11-30',
      lifecycle: 'deprecated',
      createdAt: '2025-09-29'
    })
    expect(modelRequests(fake).length).toBe(3) // pages of two: the SDK followed the cursor
  })

  it('OpenAI and compatible servers: models.list() with creation dates', async () => {
    fake = await startFakeProvider({
      name: 'openai models',
      models: ['llama3.1:8b', { id: 'qwen2.5-coder', createdAt: '2025-06-01' }]
    })
    const models = await listProviderModels({
      kind: 'openai-compatible',
      baseUrl: fake.url,
      apiKey: '',
      label: 'Ollama'
    })
    expect(models).toEqual([
      { id: 'llama3.1:8b', createdAt: '2025-01-01' },
      { id: 'qwen2.5-coder', createdAt: '2025-06-01' }
    ])
  })

  it('a wrong key is an auth error naming the provider, not an empty list', async () => {
    fake = await startFakeProvider({ name: 'models auth', requireApiKey: 'right' })
    await expect(
      listProviderModels({ kind: 'openai', baseUrl: fake.openaiBaseUrl, apiKey: 'wrong', label: 'OpenAI' })
    ).rejects.toMatchObject({ kind: 'auth' })
  })

  it('choices: retired dropped, newest first, retirement from the provider or else the table, unknown models kept', () => {
    const choices = toModelChoices([
      { id: 'claude-sonnet-4-5', createdAt: '2025-09-29' },
      { id: 'old-one', lifecycle: 'retired', createdAt: '2024-01-01' },
      { id: 'brand-new', createdAt: '2026-05-01', retiresOn: '2027-05-01' }
    ])
    expect(choices.map((c) => c.id)).toEqual(['brand-new', 'claude-sonnet-4-5'])
    expect(choices[0]).toMatchObject({ known: false, contextWindow: null, retiresOn: '2027-05-01' })
    expect(choices[1]).toMatchObject({ known: true, contextWindow: 200_000, retiresOn: '2026-11-30' })
    expect(retirementDate('brand-new', choices)).toBe('2027-05-01')
    expect(retirementDate('claude-sonnet-4-5-20250929')).toBe('2026-11-30')
    expect(retirementDate('claude-opus-4-6')).toBeUndefined()
  })
})

describe('settings:listModels', () => {
  const setup = async (env: Record<string, string | undefined> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'modus-models-'))
    const settings = await createSettingsStore(join(dir, 'settings.json'))
    const secrets = createFileSecretStore(join(dir, 'secrets.json'))
    return { settings, secrets, handlers: createSettingsHandlers({ settings, secrets, env }) }
  }

  it('uses the saved key for the saved endpoint, and the table beside each listed model', async () => {
    fake = await startFakeProvider({ name: 'listModels saved key', requireApiKey: 'sk-saved' })
    const { settings, secrets, handlers } = await setup()
    await settings.update((s) => ({
      ...s,
      providers: [{ id: 'claude', kind: 'anthropic', label: 'Claude', baseUrl: fake!.url, model: 'claude-sonnet-4-6' }]
    }))
    await secrets.set(secretNameForProvider('claude'), 'sk-saved')
    const { models } = await handlers['settings:listModels']({
      kind: 'anthropic',
      baseUrl: fake.url,
      providerId: 'claude'
    })
    expect(models.find((m) => m.id === 'claude-sonnet-4-5-20250929')).toMatchObject({
      retiresOn: '2026-11-30',
      known: true,
      contextWindow: 200_000
    })
    expect(models.find((m) => m.id === 'qwen3-coder')).toMatchObject({ known: false, contextWindow: null })
    expect(modelRequests(fake).every((r) => apiKeyOf(r) === 'sk-saved')).toBe(true)
  })

  it('never sends a saved key to another base URL; a typed key is used as typed', async () => {
    fake = await startFakeProvider({ name: 'listModels other url', requireApiKey: 'sk-typed' })
    const { settings, secrets, handlers } = await setup()
    await settings.update((s) => ({
      ...s,
      providers: [{ id: 'claude', kind: 'anthropic', label: 'Claude', model: 'claude-sonnet-4-6' }]
    }))
    await secrets.set(secretNameForProvider('claude'), 'sk-saved')
    await expect(
      handlers['settings:listModels']({ kind: 'anthropic', baseUrl: fake.url, providerId: 'claude' })
    ).rejects.toMatchObject({ code: 'provider_auth' })
    expect(modelRequests(fake).map(apiKeyOf)).not.toContain('sk-saved')
    const { models } = await handlers['settings:listModels']({
      kind: 'anthropic',
      baseUrl: fake.url,
      apiKey: 'sk-typed'
    })
    expect(models.length).toBe(6)
  })

  it('follows ANTHROPIC_BASE_URL when the form names no base URL, as a task would', async () => {
    fake = await startFakeProvider({ name: 'listModels env base url' })
    const { handlers } = await setup({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-env' })
    const { models } = await handlers['settings:listModels']({ kind: 'anthropic' })
    expect(models.map((m) => m.id)).toEqual([
      'claude-sonnet-4-6',
      'claude-sonnet-4-5-20250929',
      'gpt-5',
      'claude-opus-4-1-20250805',
      'qwen3-coder',
      'gpt-4o'
    ])
    expect(apiKeyOf(modelRequests(fake)[0])).toBe('sk-env')
  })
})
