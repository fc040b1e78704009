import { FormError } from '../../components/FormError'
import { useState, type ReactNode } from 'react'
import type { ThemePreference } from '../../../../shared/contract/settings'
import { useClient } from '../../client/client-context'
import { useSettingsStore } from '../../common/settings/settings-store'

const CHOICES: Array<{ value: ThemePreference; label: string }> = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' }
]

export function ThemePicker(): ReactNode {
  const client = useClient()
  const saved = useSettingsStore((state) => state.settings?.theme ?? 'system')
  // Shown at once; the saved value takes over when the core answers (or stays if saving failed).
  const [chosen, setChosen] = useState<ThemePreference | null>(null)
  const [error, setError] = useState<string | null>(null)
  const theme = chosen ?? saved
  const choose = async (value: ThemePreference) => {
    setChosen(value)
    setError(null)
    setError(await useSettingsStore.getState().save(client, 'settings:setTheme', { theme: value }))
    setChosen(null)
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
      <FormError message={error} />
    </fieldset>
  )
}
