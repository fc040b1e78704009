// @vitest-environment happy-dom
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileSecretStore } from '../../../src/main/core/settings/secret-store'
import { createSettingsHandlers } from '../../../src/main/core/settings/settings-handlers'
import { createSettingsStore } from '../../../src/main/core/settings/settings-store'
import {
  checkDraft,
  draftFor,
  providerIdFor,
  toProviderInput
} from '../../../src/renderer/src/features/settings/provider-form-model'
import { describeModel, suggestedModels } from '../../../src/renderer/src/features/settings/model-facts'
import { parseLimits } from '../../../src/renderer/src/features/settings/LimitsForm'
import { SettingsView } from '../../../src/renderer/src/SettingsView'
import { applyTheme, useSettingsStore } from '../../../src/renderer/src/common/settings/settings-store'
import { byButton, byLabel, click, inProcessClient, render, type, waitFor, type Rendered } from '../modes/dom'

let dir: string
let view: Rendered | undefined

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'modus-settings-ui-'))
  useSettingsStore.setState({ settings: null })
})
afterEach(() => {
  view?.unmount()
  view = undefined
  rmSync(dir, { recursive: true, force: true })
})

/**
 * The SDKs refuse to run under a DOM (they take it for a browser), so the connection check answers
 * here as a reachable server listing the model would; the check itself runs for real in
 * test/core/settings and e2e/settings.spec.ts.
 */
const reachableProvider = async (provider: { label: string; model: string }) => ({
  ok: true as const,
  models: [provider.model],
  message: `Connected to ${provider.label}: "${provider.model}" is available (1 models listed).`
})

async function mount(findBrowser?: () => null): Promise<Rendered> {
  const settings = await createSettingsStore(join(dir, 'settings.json'))
  const handlers = createSettingsHandlers({
    settings,
    secrets: createFileSecretStore(join(dir, 'secrets.json')),
    env: {},
    findBrowser
  })
  handlers['settings:testProvider'] = reachableProvider
  const client = inProcessClient(handlers)
  useSettingsStore.getState().setSettings(await handlers['settings:get']({}))
  view = await render(<SettingsView />, client)
  return view
}

describe('provider form model', () => {
  it('makes ids unique and readable', () => {
    expect(providerIdFor('Local Ollama', [])).toBe('local-ollama')
    expect(providerIdFor('Local Ollama', ['local-ollama', 'local-ollama-2'])).toBe('local-ollama-3')
    expect(providerIdFor('✨', [])).toBe('provider')
  })

  it('never sends an empty key (which would delete the stored one) when the field is left blank', () => {
    const input = toProviderInput({ ...draftFor(), model: 'claude-sonnet-4-5' }, 'anthropic')
    expect(input).not.toHaveProperty('apiKey')
    expect(input.label).toBe('Anthropic')
  })

  it('asks for a base URL on compatible endpoints and checks URLs', () => {
    expect(checkDraft({ ...draftFor(), kind: 'openai-compatible', model: 'm' }).baseUrl).toMatch(/needs its base URL/)
    expect(checkDraft({ ...draftFor(), baseUrl: 'localhost:11434' }).baseUrl).toBeDefined()
    expect(checkDraft({ ...draftFor(), baseUrl: 'file:///etc' }).baseUrl).toMatch(/http/)
    expect(checkDraft({ ...draftFor(), baseUrl: 'http://127.0.0.1:11434/v1' })).toEqual({})
  })

  it('describes known models from the table and says when a price is unknown', () => {
    expect(describeModel('claude-sonnet-4-5')).toMatch(/context · \$[\d.]+ in \/ \$[\d.]+ out per M tokens/)
    expect(describeModel('qwen3-coder:30b')).toMatch(/price unknown/)
    expect(suggestedModels('anthropic').every((id) => id.startsWith('claude'))).toBe(true)
    expect(suggestedModels('openai')).not.toContain('claude-sonnet-4-5')
  })

  it('parses limits: blank caps mean no cap, bad numbers are named', () => {
    expect(
      parseLimits({
        mistakeLimit: '0',
        repetitionLimit: '3',
        maxRequests: '',
        maxCostUsd: '',
        commandHardLimitSec: '600'
      })
    ).toEqual({
      ok: true,
      limits: { mistakeLimit: 0, repetitionLimit: 3, maxRequests: null, maxCostUsd: null, commandHardLimitSec: 600 }
    })
    const bad = parseLimits({
      mistakeLimit: '-1',
      repetitionLimit: '2.5',
      maxRequests: '1.5',
      maxCostUsd: '0',
      commandHardLimitSec: '1.5'
    })
    expect(bad.ok).toBe(false)
    expect(!bad.ok && Object.keys(bad.errors).sort()).toEqual([
      'commandHardLimitSec',
      'maxCostUsd',
      'maxRequests',
      'mistakeLimit',
      'repetitionLimit'
    ])
  })
})

describe('settings view', () => {
  it('says how to install a browser when none is found, and saves the browser viewport', async () => {
    const { container } = await mount(() => null)
    const alert = await waitFor(() =>
      [...container.querySelectorAll('[role="alert"]')].find((node) =>
        node.textContent?.includes('browser tool cannot run')
      )
    )
    expect(alert.textContent).toMatch(/No Chromium found: install .*CHROMIUM_PATH/)
    expect(byLabel(container, 'Viewport width (px)').value).toBe('900')
    expect(byLabel(container, 'Viewport height (px)').value).toBe('600')
    await type(byLabel(container, 'Viewport width (px)'), '1280')
    await type(byLabel(container, 'Viewport height (px)'), '800')
    await click(byButton(container, 'Save browser settings'))
    await waitFor(() => JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).browser?.viewport?.width === 1280)
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).browser.viewport).toEqual({
      width: 1280,
      height: 800
    })
    // The file is written before the form hears back; typing earlier would be reset by the answer.
    await waitFor(() => container.textContent?.includes('Browser settings saved.'))
    // A bad value: its error under the field once typed, and nothing to save (#28 item 18).
    await type(byLabel(container, 'Viewport width (px)'), '50')
    await waitFor(() => container.textContent?.includes('Whole pixels from 200 to 3840.'))
    expect(byLabel(container, 'Viewport width (px)').getAttribute('aria-invalid')).toBe('true')
    expect(byButton(container, 'Save browser settings').disabled).toBe(true)
  })

  it('adds a provider whose key is stored but only its last four characters are shown', async () => {
    const { container } = await mount()
    await click(byButton(container, 'Add provider'))
    const form = container.querySelector<HTMLFormElement>('form[aria-label="Provider settings"]')!
    await type(byLabel<HTMLSelectElement>(form, 'Provider'), 'openai-compatible')
    await click(byButton(form.querySelector<HTMLElement>('[aria-label="Common servers"]')!, 'LM Studio'))
    expect(byLabel(form, /Base URL/).value).toBe('http://127.0.0.1:1234/v1')
    expect(byLabel(form, 'Name (optional)').value).toBe('LM Studio')
    await type(byLabel(form, 'Model'), 'qwen3')
    await type(byLabel(form, 'API key'), 'sk-very-secret-5678')
    await click(byButton(form, 'Save provider'))
    const card = await waitFor(() => container.querySelector('[aria-label="Provider LM Studio"]'))
    expect(card.textContent).toContain('key …5678')
    expect(container.innerHTML).not.toContain('sk-very-secret-5678')
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('sk-very-secret')
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toContain('sk-very-secret-5678')
    // The first provider becomes the active one.
    expect(card.textContent).toContain('active')
  })

  it('removes a provider only after confirmation', async () => {
    const { container } = await mount()
    await click(byButton(container, 'Add provider'))
    const form = container.querySelector<HTMLFormElement>('form[aria-label="Provider settings"]')!
    await click(byButton(form, 'Save provider'))
    await waitFor(() => container.querySelector('[aria-label="Provider Anthropic"]'))
    await click(byButton(container, 'Remove Anthropic'))
    await click(byButton(container.querySelector('[role="alertdialog"]')!, 'Keep'))
    expect(container.querySelector('[aria-label="Provider Anthropic"]')).not.toBeNull()
    await click(byButton(container, 'Remove Anthropic'))
    await click(byButton(container.querySelector('[role="alertdialog"]')!, 'Remove'))
    await waitFor(() => !container.querySelector('[aria-label="Provider Anthropic"]'))
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).providers).toEqual([])
  })

  it('saves limits and the theme to the settings file', async () => {
    const { container } = await mount()
    const limits = container.querySelector<HTMLFormElement>('form[aria-label="Limits"]')!
    await type(byLabel(limits, 'Identical calls in a row before asking'), '0')
    await type(byLabel(limits, 'Cost per task before asking (USD)'), '3')
    await click(byButton(limits, 'Save limits'))
    await waitFor(() => limits.textContent?.includes('Limits saved.'))
    await click(byLabel(container, 'Dark'))
    await waitFor(() => document.documentElement.dataset.theme === 'dark')
    const file = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))
    expect(file.policy).toMatchObject({ repetitionLimit: 0, maxCostUsd: 3, maxRequests: null, mistakeLimit: 3 })
    expect(file.theme).toBe('dark')
  })

  it('saves command rules for every mode, one per line, without blanks or repeats', async () => {
    const { container } = await mount()
    const form = container.querySelector<HTMLFormElement>('form[aria-label="Command rules for every mode"]')!
    await type(byLabel<HTMLTextAreaElement>(form, 'Allow'), 'npm test\n\n  git status  \nnpm test')
    await type(byLabel<HTMLTextAreaElement>(form, 'Deny'), 'git push *')
    await click(byButton(form, 'Save command rules'))
    await waitFor(() => form.textContent?.includes('Command rules saved.'))
    const file = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))
    expect(file.policy.commandRules).toEqual({ allow: ['npm test', 'git status'], ask: [], deny: ['git push *'] })
    expect(byLabel<HTMLTextAreaElement>(form, 'Allow').value).toBe('npm test\ngit status')
  })

  it('shows the MCP schema budget (2000 by default), refuses a bad one and saves a good one to the settings file', async () => {
    const { container } = await mount()
    const form = container.querySelector<HTMLFormElement>('form[aria-label="MCP tools"]')!
    const field = byLabel(form, 'Tool schema budget (tokens)')
    expect(field.value).toBe('2000')
    // Errors show under the field once typed, and Save stays disabled (#28 item 18: one save model).
    const note = () => form.querySelector('.field-error')?.textContent ?? ''
    await type(field, 'lots')
    await waitFor(() => note().includes('whole number of tokens'))
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(byButton(form, 'Save MCP settings').disabled).toBe(true)
    await type(field, '2000000')
    await waitFor(() => note().includes('at most 1,000,000 tokens'))
    expect(existsSync(join(dir, 'settings.json'))).toBe(false) // nothing was written
    await type(field, ' 500 ')
    await click(byButton(form, 'Save MCP settings'))
    await waitFor(() => form.querySelector('[role="status"]')?.textContent === 'MCP settings saved.')
    expect(form.querySelector('[role="alert"]')).toBeNull()
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).mcp).toEqual({ schemaTokenBudget: 500 })
    expect(useSettingsStore.getState().settings?.mcp.schemaTokenBudget).toBe(500)
  })

  it('applies the theme preference to the root element', () => {
    const root = document.createElement('html')
    applyTheme(root, 'light')
    expect(root.dataset.theme).toBe('light')
    applyTheme(root, 'system')
    expect(root.hasAttribute('data-theme')).toBe(false)
  })
})
