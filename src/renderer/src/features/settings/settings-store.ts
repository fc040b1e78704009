import { create } from 'zustand'
import type { ModusClient } from '../../../../shared/contract'
import './theme.css'
import type { SettingsView, ThemePreference } from '../../../../shared/contract/settings'

interface SettingsSlice {
  settings: SettingsView | null
  setSettings(settings: SettingsView): void
  /** Reads the settings from the core. */
  load(client: ModusClient): Promise<void>
}

export const useSettingsStore = create<SettingsSlice>((set) => ({
  settings: null,
  setSettings: (settings) => set({ settings }),
  async load(client) {
    const result = await client.request('settings:get', {})
    if (result.ok) set({ settings: result.value })
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
