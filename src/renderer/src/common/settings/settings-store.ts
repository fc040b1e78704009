import { create } from 'zustand'
import type { Channel, ModusClient, RequestInput, RequestOutput } from '../../../../shared/contract'
import './theme.css'
import { applyCachedTheme, applyTheme, cacheTheme, shownTheme } from './theme-cache'
import type { ProviderCheck, ProviderInput, SettingsView } from '../../../../shared/contract/settings'
import type { Result } from '../../../../shared/result'

/** The requests that change a setting and answer with all the settings. */
export type SettingsChange = Exclude<
  { [C in Channel]: RequestOutput<C> extends SettingsView ? C : never }[Channel],
  'settings:get'
>

interface SettingsSlice {
  settings: SettingsView | null
  setSettings(settings: SettingsView): void
  /** Reads the settings from the core. */
  load(client: ModusClient): Promise<void>
  /** Changes a setting and shows what the core saved; the error text when it refused. */
  save<C extends SettingsChange>(client: ModusClient, channel: C, input: RequestInput<C>): Promise<string | null>
  /** Tries a provider as it would be saved (its model list), saving nothing. */
  testProvider(client: ModusClient, input: ProviderInput): Promise<Result<ProviderCheck>>
  /**
   * Saves a provider and, when asked, makes it the active one; the settings shown change only once
   * both succeeded. The error text when the core refused either.
   */
  saveProvider(client: ModusClient, input: ProviderInput, activate: boolean): Promise<string | null>
}

export const useSettingsStore = create<SettingsSlice>((set) => ({
  settings: null,
  setSettings: (settings) => set({ settings }),
  async load(client) {
    const result = await client.request('settings:get', {})
    if (result.ok) set({ settings: result.value })
  },
  async save(client, channel, input) {
    const result = await client.request(channel, input)
    if (!result.ok) return result.error.message
    set({ settings: result.value })
    return null
  },
  testProvider: (client, input) => client.request('settings:testProvider', input),
  async saveProvider(client, input, activate) {
    const saved = await client.request('settings:saveProvider', input)
    if (!saved.ok) return saved.error.message
    const view = activate ? await client.request('settings:setActiveProvider', { id: input.id }) : saved
    if (!view.ok) return view.error.message
    set({ settings: view.value })
    return null
  }
}))

// The theme must follow the settings wherever the user is in the app, not only in the Settings view.
// In a browser whose early script ran, it has applied the cached theme already.
if (typeof document !== 'undefined') {
  const root = document.documentElement
  if (!window.modusEarly) applyCachedTheme(root)
  useSettingsStore.subscribe((state) => {
    if (!state.settings) return
    const changed = state.settings.theme !== shownTheme(root)
    applyTheme(root, state.settings.theme)
    if (changed) cacheTheme(state.settings.theme)
  })
}

export { applyTheme }
