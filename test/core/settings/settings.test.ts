import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveDataDir } from '../../../src/main/core/app-paths'
import { locateJsonError } from '../../../src/main/core/settings/json-error'
import { createFileSecretStore, resolveApiKey } from '../../../src/main/core/settings/secret-store'
import { createSettingsHandlers } from '../../../src/main/core/settings/settings-handlers'
import { createSettingsStore } from '../../../src/main/core/settings/settings-store'
import { startFakeProvider, type FakeProvider } from '../../support/fake-provider'

const tempDir = () => mkdtempSync(join(tmpdir(), 'modus-settings-'))

describe('settings store', () => {
  it('a settings file that is not valid JSON is reported with its line and kept byte for byte', async () => {
    const file = join(tempDir(), 'settings.json')
    const broken = '{\n  "version": 1,\n  "providers": [\n    { "id": "a", }\n  ]\n}\n'
    writeFileSync(file, broken)
    const store = await createSettingsStore(file)
    expect(store.problems()).toHaveLength(1)
    expect(store.problems()[0]).toContain('line 4')
    expect(store.problems()[0]).toContain('kept unchanged')
    expect(store.get().providers).toEqual([])
    await expect(store.update((s) => ({ ...s, activeProviderId: null }))).rejects.toMatchObject({
      code: 'settings_broken'
    })
    expect(readFileSync(file, 'utf8')).toBe(broken)
  })

  it('a file that parses but breaks the schema names the field, and is kept', async () => {
    const file = join(tempDir(), 'settings.json')
    const text = JSON.stringify({
      version: 1,
      providers: [{ id: 'Bad Id', kind: 'anthropic', label: 'x', model: 'm' }],
      policy: { mistakeLimit: -1 }
    })
    writeFileSync(file, text)
    const store = await createSettingsStore(file)
    expect(store.problems()[0]).toContain('providers.0.id')
    expect(store.problems()[0]).toContain('policy.mistakeLimit')
    expect(readFileSync(file, 'utf8')).toBe(text)
  })

  it('saves atomically and reloads what it saved; defaults fill what is missing', async () => {
    const file = join(tempDir(), 'settings.json')
    const store = await createSettingsStore(file)
    expect(store.get().policy).toMatchObject({ mistakeLimit: 3, repetitionLimit: 3, maxRequests: null })
    await store.update((s) => ({ ...s, policy: { ...s.policy, maxRequests: 50 } }))
    const again = await createSettingsStore(file)
    expect(again.get().policy.maxRequests).toBe(50)
    expect(again.problems()).toEqual([])
  })
})

describe('JSON error location', () => {
  it.each([
    ['{"a": 1,}', 1, 9],
    ['{\n"a": tru\n}', 2, 6],
    ['[1, 2', 1, 6],
    ['{"a": "b"} x', 1, 12]
  ])('%j → line %i column %i', (text, line, column) => {
    expect(locateJsonError(text)).toMatchObject({ line, column })
  })

  it('valid JSON has no error', () => {
    expect(locateJsonError('{"a": [1, {"b": null}], "c": "\\u00e9"}')).toBeNull()
  })
})

describe('secrets and the settings handlers', () => {
  it('keys live in a 0600 file and never reach the renderer; env vars work without a stored key', async () => {
    const dir = tempDir()
    const secrets = createFileSecretStore(join(dir, 'secrets.json'))
    const settings = await createSettingsStore(join(dir, 'settings.json'))
    const env = { OPENAI_API_KEY: 'sk-env-0123456789' }
    const handlers = createSettingsHandlers({ settings, secrets, env })
    const view = await handlers['settings:saveProvider']({
      id: 'claude',
      kind: 'anthropic',
      label: 'Claude',
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant-secret-abcd1234'
    })
    expect(view.providers[0]).toMatchObject({ id: 'claude', hasKey: true, keyHint: '1234' })
    expect(view.activeProviderId).toBe('claude')
    expect(JSON.stringify(view)).not.toContain('sk-ant-secret')
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('sk-ant-secret')

    const withOpenAi = await handlers['settings:saveProvider']({
      id: 'gpt',
      kind: 'openai',
      label: 'GPT',
      model: 'gpt-4o'
    })
    expect(withOpenAi.providers.find((p) => p.id === 'gpt')).toMatchObject({ hasKey: true, keyHint: '6789' })
    expect(await resolveApiKey(secrets, { id: 'gpt', kind: 'openai' }, env)).toEqual({
      key: 'sk-env-0123456789',
      source: 'env'
    })

    const kept = await handlers['settings:saveProvider']({
      id: 'claude',
      kind: 'anthropic',
      label: 'Claude 2',
      model: 'claude-opus-4-6'
    })
    expect(kept.providers.find((p) => p.id === 'claude')).toMatchObject({ label: 'Claude 2', hasKey: true })

    const removed = await handlers['settings:removeProvider']({ id: 'claude' })
    expect(removed.activeProviderId).toBe('gpt')
    expect(await secrets.get('provider:claude')).toBeUndefined()
    await expect(handlers['settings:setActiveProvider']({ id: 'nope' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('browser viewport (900x600) and MCP schema budget (2,000 tokens) by default, saved and reloaded; no browser found says how to install one', async () => {
    const dir = tempDir()
    const secrets = createFileSecretStore(join(dir, 'secrets.json'))
    const settings = await createSettingsStore(join(dir, 'settings.json'))
    const browserAt = (path: string | null) => () => (path ? { path, source: 'installed' as const } : null)
    const handlers = createSettingsHandlers({ settings, secrets, env: {}, findBrowser: browserAt('/usr/bin/chromium') })
    const first = await handlers['settings:get']({})
    expect(first.browser).toEqual({
      viewport: { width: 900, height: 600 },
      chromium: { found: true, path: '/usr/bin/chromium', source: 'installed' }
    })
    expect(first.mcp).toEqual({ schemaTokenBudget: 2000 })
    expect(
      (await handlers['settings:saveBrowser']({ viewport: { width: 1280, height: 800 } })).browser.viewport
    ).toEqual({ width: 1280, height: 800 })
    expect((await handlers['settings:saveMcp']({ schemaTokenBudget: 500 })).mcp.schemaTokenBudget).toBe(500)
    const reloaded = await createSettingsStore(join(dir, 'settings.json'))
    expect(reloaded.get().browser.viewport).toEqual({ width: 1280, height: 800 })
    expect(reloaded.get().mcp.schemaTokenBudget).toBe(500)
    const none = await createSettingsHandlers({ settings, secrets, env: {}, findBrowser: browserAt(null) })[
      'settings:get'
    ]({})
    expect(none.browser.chromium.found).toBe(false)
    expect(!none.browser.chromium.found && none.browser.chromium.advice).toMatch(
      /No Chromium found: install .*CHROMIUM_PATH/
    )
  })
})

describe('environment keys and the secrets file', () => {
  const env = { OPENAI_API_KEY: 'sk-env-exported-for-openai', ANTHROPIC_API_KEY: 'sk-ant-env-key' }

  it("an environment key goes only to its provider's official endpoint", async () => {
    const secrets = createFileSecretStore(join(tempDir(), 'secrets.json'))
    const none = { key: undefined, source: 'none' }
    expect(
      await resolveApiKey(
        secrets,
        { id: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' },
        env
      )
    ).toEqual(none)
    expect(
      await resolveApiKey(secrets, { id: 'proxy', kind: 'openai', baseUrl: 'https://collector.example/v1' }, env)
    ).toEqual(none)
    expect(
      await resolveApiKey(
        secrets,
        { id: 'fake-official', kind: 'openai', baseUrl: 'https://api.openai.com.evil.example/v1' },
        env
      )
    ).toEqual(none)
    expect(
      await resolveApiKey(secrets, { id: 'a', kind: 'anthropic', baseUrl: 'http://api.anthropic.com' }, env)
    ).toEqual(none)
    expect(
      (await resolveApiKey(secrets, { id: 'o', kind: 'openai', baseUrl: 'https://api.openai.com/v1' }, env)).source
    ).toBe('env')
    expect((await resolveApiKey(secrets, { id: 'a', kind: 'anthropic' }, env)).source).toBe('env')
    // A base URL the user named in the same environment pairs with that environment's key.
    expect(
      (
        await resolveApiKey(
          secrets,
          { id: 'a', kind: 'anthropic' },
          { ...env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }
        )
      ).source
    ).toBe('env')
  })

  it('never sends OPENAI_API_KEY to an OpenAI-compatible endpoint the settings name', async () => {
    const { startFakeProvider } = await import('../../support/fake-provider')
    const { createCore } = await import('../../../src/main/core/create-core')
    const fake = await startFakeProvider({
      name: 'env-key',
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }]
    })
    const dir = tempDir()
    const core = await createCore({ dataDir: dir, transport: 'web', version: 'test', env })
    try {
      await core.handlers['settings:saveProvider']({
        id: 'local',
        kind: 'openai-compatible',
        label: 'Local',
        baseUrl: fake.openaiBaseUrl,
        model: 'qwen3'
      })
      await core.handlers['workspace:open']({ path: dir })
      await core.handlers['task:start']({ text: 'hi', mode: 'ask' })
      const deadline = Date.now() + 20_000
      while (!fake.requests.some((r) => r.protocol === 'openai') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 25))
      const sent = fake.requests.filter((r) => r.protocol === 'openai')
      expect(sent.length).toBeGreaterThan(0)
      for (const request of sent) expect(JSON.stringify(request.headers)).not.toContain('sk-env-exported-for-openai')
    } finally {
      await core.dispose()
      await fake.close()
    }
  })

  it('a damaged secrets file is reported as damaged, not as "no API key", and kept as it is', async () => {
    const dir = tempDir()
    const file = join(dir, 'secrets.json')
    writeFileSync(file, '{"provider:claude": "sk-ant-real-key-0000",')
    const secrets = createFileSecretStore(file)
    const settings = await createSettingsStore(join(dir, 'settings.json'))
    const handlers = createSettingsHandlers({ settings, secrets, env: {} })
    await settings.update((current) => ({
      ...current,
      providers: [{ id: 'claude', kind: 'anthropic', label: 'Claude', model: 'claude-sonnet-4-6' }],
      activeProviderId: 'claude'
    }))
    const view = await handlers['settings:get']({})
    expect(view.problems.join(' ')).toMatch(/secrets\.json is damaged/)
    await expect(
      handlers['settings:saveProvider']({
        id: 'claude',
        kind: 'anthropic',
        label: 'Claude',
        model: 'm',
        apiKey: 'sk-new-key-1111'
      })
    ).rejects.toThrow(/damaged/)
    expect(readFileSync(file, 'utf8')).toBe('{"provider:claude": "sk-ant-real-key-0000",')
  })
})

describe('app data dir', () => {
  const home = '/home/ada'
  it('MODUS_DATA_DIR wins', () => {
    expect(resolveDataDir({ env: { MODUS_DATA_DIR: '/tmp/x' }, platform: 'linux', home })).toBe('/tmp/x')
  })
  it('matches Electron userData on each platform', () => {
    expect(resolveDataDir({ env: {}, platform: 'linux', home })).toBe('/home/ada/.config/Modus')
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: '/cfg' }, platform: 'linux', home })).toBe('/cfg/Modus')
    expect(resolveDataDir({ env: {}, platform: 'darwin', home })).toBe('/home/ada/Library/Application Support/Modus')
    expect(resolveDataDir({ env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, platform: 'win32', home })).toContain(
      'Modus'
    )
  })
})

describe('testing a provider before it is saved', () => {
  const setup = async (fake: FakeProvider) => {
    const dir = tempDir()
    const secrets = createFileSecretStore(join(dir, 'secrets.json'))
    const handlers = createSettingsHandlers({
      settings: await createSettingsStore(join(dir, 'settings.json')),
      secrets,
      env: {}
    })
    const anthropic = {
      id: 'anthropic',
      kind: 'anthropic' as const,
      label: 'Anthropic',
      baseUrl: fake.anthropicBaseUrl,
      model: 'claude-sonnet-4-5'
    }
    return { handlers, secrets, anthropic }
  }

  it('lists the models with the typed or the stored key, and finds the model by its alias', async () => {
    const fake = await startFakeProvider({ name: 'check ok', requireApiKey: 'sk-right-1234' })
    try {
      const { handlers, anthropic } = await setup(fake)
      const typed = await handlers['settings:testProvider']({ ...anthropic, apiKey: 'sk-right-1234' })
      expect(typed).toMatchObject({ ok: true, message: expect.stringContaining('"claude-sonnet-4-5" is available') })
      expect(typed.models).toContain('claude-sonnet-4-5-20250929')
      await handlers['settings:saveProvider']({ ...anthropic, apiKey: 'sk-right-1234' })
      expect(await handlers['settings:testProvider'](anthropic)).toMatchObject({ ok: true })
      // Testing saves nothing: a wrong key tried here leaves the stored one in place.
      expect(await handlers['settings:testProvider']({ ...anthropic, apiKey: 'sk-wrong-0000' })).toMatchObject({
        ok: false,
        setting: 'apiKey',
        message: expect.stringMatching(/Anthropic rejected the API key \(401/)
      })
      expect((await handlers['settings:get']({})).providers[0].keyHint).toBe('1234')
      const openai = await handlers['settings:testProvider']({
        id: 'oa',
        kind: 'openai',
        label: 'OpenAI',
        baseUrl: fake.openaiBaseUrl,
        model: 'gpt-5',
        apiKey: 'sk-right-1234'
      })
      expect(openai).toMatchObject({ ok: true })
    } finally {
      await fake.close()
    }
  })

  it('says what is wrong: no key, an unknown model, an unreachable server', async () => {
    const fake = await startFakeProvider({ name: 'check problems' })
    try {
      const { handlers, anthropic } = await setup(fake)
      expect(await handlers['settings:testProvider'](anthropic)).toEqual({
        ok: false,
        setting: 'apiKey',
        models: [],
        message: 'Anthropic needs an API key: enter it here or set ANTHROPIC_API_KEY.'
      })
      const unknown = await handlers['settings:testProvider']({
        ...anthropic,
        model: 'claude-sonnet-9',
        apiKey: 'sk-any-key-5678'
      })
      expect(unknown).toMatchObject({
        ok: false,
        setting: 'model',
        message: expect.stringMatching(/^Anthropic has no model "claude-sonnet-9"\. It lists 6: claude-sonnet-4-6, /)
      })
      const { port } = await closedPort()
      const unreachable = await handlers['settings:testProvider']({
        id: 'local',
        kind: 'openai-compatible',
        label: 'Local',
        baseUrl: `http://127.0.0.1:${port}/v1`,
        model: 'qwen3-coder'
      })
      expect(unreachable).toMatchObject({
        ok: false,
        setting: 'baseUrl',
        message: expect.stringMatching(/^Could not reach Local at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/)
      })
    } finally {
      await fake.close()
    }
  })
})

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<{ port: number }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return { port }
}
