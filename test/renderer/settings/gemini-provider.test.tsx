// @vitest-environment happy-dom
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileSecretStore } from '../../../src/main/core/settings/secret-store'
import { createSettingsHandlers } from '../../../src/main/core/settings/settings-handlers'
import { createSettingsStore } from '../../../src/main/core/settings/settings-store'
import { suggestedModels } from '../../../src/renderer/src/features/settings/model-facts'
import { SettingsView } from '../../../src/renderer/src/SettingsView'
import { useSettingsStore } from '../../../src/renderer/src/common/settings/settings-store'
import { byButton, byLabel, click, inProcessClient, render, type, waitFor, type Rendered } from '../modes/dom'

// Gemini exists only as a descriptor: the settings form offers it from the same data as the core.
let dir: string
let view: Rendered | undefined

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'modus-gemini-ui-'))
  useSettingsStore.setState({ settings: null })
})
afterEach(() => {
  view?.unmount()
  view = undefined
  rmSync(dir, { recursive: true, force: true })
})

async function mount(): Promise<Rendered> {
  const settings = await createSettingsStore(join(dir, 'settings.json'))
  const handlers = createSettingsHandlers({
    settings,
    secrets: createFileSecretStore(join(dir, 'secrets.json')),
    env: {}
  })
  // The SDKs refuse to run under a DOM; the real check for Gemini runs in test/core/providers/gemini.test.ts.
  handlers['settings:testProvider'] = async (provider) => ({
    ok: true,
    models: [provider.model],
    message: `Connected to ${provider.label}.`
  })
  const client = inProcessClient(handlers)
  useSettingsStore.getState().setSettings(await handlers['settings:get']({}))
  view = await render(<SettingsView />, client)
  return view
}

describe('Gemini in the provider settings', () => {
  it('is offered as a provider, starts on a Gemini model with Google as the default endpoint, and saves', async () => {
    const { container } = await mount()
    await click(byButton(container, 'Add provider'))
    const form = container.querySelector<HTMLFormElement>('form[aria-label="Provider settings"]')!
    const kind = byLabel<HTMLSelectElement>(form, 'Provider')
    expect([...kind.options].map((option) => option.textContent)).toContain('Google Gemini')
    await type(kind, 'gemini')
    expect(byLabel(form, 'Model').value).toBe('gemini-2.5-pro')
    expect(byLabel(form, /Base URL/).placeholder).toBe('default')
    expect(form.textContent).toContain('Base URL (optional)')
    expect(form.querySelector('[aria-label="Common servers"]')).toBeNull()
    await type(byLabel(form, 'API key'), 'gm-secret-4321')
    await click(byButton(form, 'Save provider'))
    const card = await waitFor(() => container.querySelector('[aria-label="Provider Google Gemini"]'))
    expect(card.textContent).toContain('Google Gemini')
    expect(card.textContent).toContain('key …4321')
    const saved = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))
    expect(saved.providers).toEqual([
      expect.objectContaining({ id: 'google-gemini', kind: 'gemini', model: 'gemini-2.5-pro' })
    ])
  })

  it('suggests the Gemini models of the model table, and only those', () => {
    const suggested = suggestedModels('gemini')
    expect(suggested).toEqual(expect.arrayContaining(['gemini-2.5-pro', 'gemini-2.5-flash']))
    expect(suggested.every((id) => id.startsWith('gemini-'))).toBe(true)
  })
})
