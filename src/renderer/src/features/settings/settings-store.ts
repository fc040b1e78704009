import { create } from 'zustand'
import './theme.css'
import type { SettingsView, ThemePreference } from '../../../../shared/contract/settings'

interface SettingsSlice {
  settings: SettingsView | null
  setSettings(settings: SettingsView): void
}

export const useSettingsStore = create<SettingsSlice>((set) => ({
  settings: null,
  setSettings: (settings) => set({ settings })
}))

/**
 * `system` leaves the colours to the OS (the stylesheet's prefers-color-scheme); light and dark set
 * `data-theme` on the root element, which the theme stylesheet gives precedence.
 */
export function applyTheme(root: HTMLElement, theme: ThemePreference): void {
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
}

// The theme must follow the settings wherever the user is in the app, not only in the Settings view.
if (typeof document !== 'undefined') {
  useSettingsStore.subscribe((state) => applyTheme(document.documentElement, state.settings?.theme ?? 'system'))
}
