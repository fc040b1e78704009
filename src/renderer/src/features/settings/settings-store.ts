import { create } from 'zustand'
import type { SettingsView } from '../../../../shared/contract/settings'

interface SettingsSlice {
  settings: SettingsView | null
  setSettings(settings: SettingsView): void
}

export const useSettingsStore = create<SettingsSlice>((set) => ({
  settings: null,
  setSettings: (settings) => set({ settings })
}))
