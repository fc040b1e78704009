import type { ReactNode } from 'react'
import type { ThemePreference } from '../../../../shared/contract/settings'
import { useClient } from '../../client/client-context'
import { useSettingsStore } from './settings-store'

const CHOICES: Array<{ value: ThemePreference; label: string }> = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' }
]

export function ThemePicker(): ReactNode {
  const client = useClient()
  const theme = useSettingsStore((state) => state.settings?.theme ?? 'system')
  const choose = async (value: ThemePreference) => {
    const result = await client.request('settings:setTheme', { theme: value })
    if (result.ok) useSettingsStore.getState().setSettings(result.value)
  }
  return (
    <fieldset className="theme-picker">
      <legend>Theme</legend>
      {CHOICES.map((choice) => (
        <label key={choice.value} className="inline">
          <input
            type="radio"
            name="theme"
            value={choice.value}
            checked={theme === choice.value}
            onChange={() => void choose(choice.value)}
          />
          {choice.label}
        </label>
      ))}
    </fieldset>
  )
}
