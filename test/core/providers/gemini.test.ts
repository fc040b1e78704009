import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { chooseBaseUrl, resolveBaseUrl } from '../../../src/main/core/providers/base-url'
import { createProvider } from '../../../src/main/core/providers/create-provider'
import { checkProvider } from '../../../src/main/core/settings/check-provider'
import { createFileSecretStore, resolveApiKey } from '../../../src/main/core/settings/secret-store'
import { ProviderKind } from '../../../src/shared/contract/settings'
import { PROVIDER_KINDS, PROVIDERS, type ProviderDescriptor } from '../../../src/shared/providers/descriptors'
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../../support/fake-provider'
import { runCli } from '../../support/run-cli'
import { run, userRequest } from './collect'

// Gemini is one descriptor over the OpenAI wire: these run the real openai SDK against the fake server.

let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

const tempDir = (name: string) => realpathSync(mkdtempSync(join(tmpdir(), `modus-gemini-${name}-`)))
const secretsIn = (dir: string) => createFileSecretStore(join(dir, 'secrets.json'))
const readTool = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }
}
const GEMINI_MODELS = ['models/gemini-2.5-pro', 'models/gemini-2.5-flash', 'models/text-embedding-004']

describe('Gemini through its OpenAI-compatible endpoint', () => {
  it('streams text and a tool call through the OpenAI SDK, with the key as a bearer token and max_tokens', async () => {
    fake = await startFakeProvider({
      name: 'gemini stream',
      requireApiKey: 'gemini-key',
      turns: [
        {
          text: 'Reading it.',
          toolCalls: [{ name: 'read_file', input: { path: 'a.ts' } }],
          usage: { inputTokens: 30, outputTokens: 9 }
        }
      ]
    })
    const provider = createProvider({
      kind: 'gemini',
      baseUrl: fake.openaiBaseUrl,
      apiKey: 'gemini-key',
      model: 'gemini-2.5-flash'
    })
    const result = await run(
      provider,
      userRequest('gemini-2.5-flash', 'look', { tools: [readTool], maxOutputTokens: 100 })
    )
    expect(result.error).toBeNull()
    expect(result.text).toBe('Reading it.')
    expect(result.toolCalls.map(({ name, input }) => ({ name, input }))).toEqual([
      { name: 'read_file', input: { path: 'a.ts' } }
    ])
    expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 9 })
    expect(fake.requests[0]).toMatchObject({ protocol: 'openai', path: '/v1/chat/completions' })
    expect(fake.requests[0].headers.authorization).toBe('Bearer gemini-key')
    expect(fake.requests[0].body).toMatchObject({
      model: 'gemini-2.5-flash',
      max_tokens: 100,
      stream_options: { include_usage: true }
    })
    expect(provider.id).toBe(`gemini:${fake.openaiBaseUrl}`)
  })

  it('refuses to send a request without a key, naming the provider and the key setting', async () => {
    fake = await startFakeProvider({ name: 'gemini no key' })
    const result = await run(
      createProvider({ kind: 'gemini', baseUrl: fake.openaiBaseUrl, apiKey: '', model: 'gemini-2.5-flash' }),
      userRequest('gemini-2.5-flash')
    )
    expect(result.error).toMatchObject({ kind: 'auth', setting: 'apiKey' })
    expect(result.error!.message).toContain('Google Gemini')
    expect(fake.requests).toHaveLength(0)
  })

  it("defaults to Google's endpoint, keeps its path, and ignores OPENAI_BASE_URL (meant for OpenAI)", () => {
    expect(resolveBaseUrl('gemini', undefined)).toBe('https://generativelanguage.googleapis.com/v1beta/openai')
    expect(resolveBaseUrl('gemini', 'https://generativelanguage.googleapis.com/v1beta/openai/')).toBe(
      'https://generativelanguage.googleapis.com/v1beta/openai'
    )
    expect(chooseBaseUrl('gemini', undefined, { OPENAI_BASE_URL: 'https://gateway.example/v1' })).toBeUndefined()
    expect(chooseBaseUrl('openai', undefined, { OPENAI_BASE_URL: 'https://gateway.example/v1' })).toBe(
      'https://gateway.example/v1'
    )
  })

  it('lists its models without the "models/" prefix, so the model the user types is found', async () => {
    fake = await startFakeProvider({ name: 'gemini models', models: GEMINI_MODELS, requireApiKey: 'gemini-key' })
    const dir = tempDir('check')
    const input = {
      id: 'gemini',
      kind: 'gemini' as const,
      label: 'Google Gemini',
      baseUrl: fake.openaiBaseUrl,
      model: 'gemini-2.5-flash',
      apiKey: 'gemini-key'
    }
    const check = await checkProvider(input, { secrets: secretsIn(dir), env: {} })
    expect(check).toMatchObject({ ok: true, models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'text-embedding-004'] })
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' })
    const missing = await checkProvider({ ...input, apiKey: undefined }, { secrets: secretsIn(dir), env: {} })
    expect(missing).toMatchObject({
      ok: false,
      setting: 'apiKey',
      message: 'Google Gemini needs an API key: enter it here or set GEMINI_API_KEY.'
    })
  })

  it("sends GEMINI_API_KEY to Google's endpoint only, and never another provider's key", async () => {
    const secrets = secretsIn(tempDir('keys'))
    const env = { GEMINI_API_KEY: 'gm-env', OPENAI_API_KEY: 'sk-openai' }
    expect(await resolveApiKey(secrets, { id: 'g', kind: 'gemini' }, env)).toEqual({ key: 'gm-env', source: 'env' })
    expect(
      await resolveApiKey(
        secrets,
        { id: 'g', kind: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/' },
        env
      )
    ).toMatchObject({ source: 'env' })
    expect(
      await resolveApiKey(secrets, { id: 'g', kind: 'gemini', baseUrl: 'https://collector.example/v1beta/openai' }, env)
    ).toMatchObject({ source: 'none' })
    expect(await resolveApiKey(secrets, { id: 'g', kind: 'gemini' }, { OPENAI_API_KEY: 'sk-openai' })).toMatchObject({
      source: 'none'
    })
  })
})

describe('modus run with Gemini', { timeout: 120_000 }, () => {
  const done: FakeTurn = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done with Gemini.' } }] }

  it('--provider gemini runs a task with GEMINI_API_KEY and the default Gemini model', async () => {
    fake = await startFakeProvider({ name: 'cli gemini', turns: [done], requireApiKey: 'gm-env' })
    const workspace = tempDir('ws')
    const env = { MODUS_DATA_DIR: tempDir('data'), HOME: tempDir('home'), GEMINI_API_KEY: 'gm-env' }
    const cli = await runCli(
      ['run', '--workspace', workspace, '--provider', 'gemini', '--base-url', fake.openaiBaseUrl, 'hi'],
      { env }
    )
    expect({ code: cli.code, stderr: cli.stderr }).toMatchObject({ code: 0 })
    expect(cli.stdout).toContain('Done with Gemini.')
    expect(fake.requests.map((r) => [r.path, r.body?.model])).toEqual([['/v1/chat/completions', 'gemini-2.5-pro']])
  })

  it('runs the active Gemini provider from settings with its stored key', async () => {
    fake = await startFakeProvider({ name: 'settings gemini', turns: [done], requireApiKey: 'gm-stored' })
    const dataDir = tempDir('data')
    const provider = {
      id: 'gem',
      kind: 'gemini',
      label: 'My Gemini',
      model: 'gemini-2.5-flash',
      baseUrl: fake.openaiBaseUrl
    }
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ providers: [provider], activeProviderId: 'gem' }))
    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ 'provider:gem': 'gm-stored' }), { mode: 0o600 })
    const env = { MODUS_DATA_DIR: dataDir, HOME: tempDir('home'), GEMINI_API_KEY: 'gm-env-must-not-be-used' }
    const cli = await runCli(['run', '--workspace', tempDir('ws'), 'hi'], { env })
    expect({ code: cli.code, stderr: cli.stderr }).toMatchObject({ code: 0 })
    expect(fake.requests.map((r) => [r.path, r.body?.model, r.headers.authorization])).toEqual([
      ['/v1/chat/completions', 'gemini-2.5-flash', 'Bearer gm-stored']
    ])
  })
})

describe('providers are data', () => {
  it('an unknown kind fails to compile and is refused where kinds come in', () => {
    // @ts-expect-error every kind needs a descriptor: a Record missing one does not compile
    const partial: Record<ProviderKind, ProviderDescriptor> = { anthropic: PROVIDERS.anthropic }
    expect(Object.keys(partial)).toEqual(['anthropic'])
    expect(ProviderKind.safeParse('bedrock').success).toBe(false)
    expect(PROVIDER_KINDS.every((kind) => ProviderKind.safeParse(kind).success)).toBe(true)
  })
})
