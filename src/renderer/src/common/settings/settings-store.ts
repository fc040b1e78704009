import { create } from 'zustand'
import type { Channel, ModusClient, RequestInput, RequestOutput } from '../../../../shared/contract'
import './theme.css'
import type { ProviderCheck, ProviderInput, SettingsView, ThemePreference } from '../../../../shared/contract/settings'
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

/**
 * `system` leaves the colours to the OS (the stylesheet's prefers-color-scheme); light and dark set
 * `data-theme` on the root element, which the theme stylesheet gives precedence.
 */
export function applyTheme(root: HTMLElement, theme: ThemePreference): void {
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
}

const THEME_CACHE_KEY = 'modus.theme'

/** The last theme seen, so the first paint after a start is already in the user's colours. */
function cachedTheme(): ThemePreference {
  try {
    const value = localStorage.getItem(THEME_CACHE_KEY)
    return value === 'light' || value === 'dark' ? value : 'system'
  } catch {
    return 'system'
  }
}

// The theme must follow the settings wherever the user is in the app, not only in the Settings view.
if (typeof document !== 'undefined') {
  applyTheme(document.documentElement, cachedTheme())
  useSettingsStore.subscribe((state) => {
    if (!state.settings) return
    applyTheme(document.documentElement, state.settings.theme)
    try {
      localStorage.setItem(THEME_CACHE_KEY, state.settings.theme)
    } catch {
      // Storage can be unavailable (private mode); the settings still decide once loaded.
    }
  })
}
