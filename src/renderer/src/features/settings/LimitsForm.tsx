import type { ReactNode } from 'react'
import { Field, SettingsForm, useSectionDraft } from '../../components/SettingsForm'
import type { LimitsInput } from '../../../../shared/contract/settings'
import { useClient } from '../../client/client-context'
import { useSettingsStore } from '../../common/settings/settings-store'

type LimitsDraft = {
  mistakeLimit: string
  repetitionLimit: string
  maxRequests: string
  maxCostUsd: string
  commandHardLimitSec: string
}

const toDraft = (limits: LimitsInput): LimitsDraft => ({
  mistakeLimit: String(limits.mistakeLimit),
  repetitionLimit: String(limits.repetitionLimit),
  maxRequests: limits.maxRequests === null ? '' : String(limits.maxRequests),
  maxCostUsd: limits.maxCostUsd === null ? '' : String(limits.maxCostUsd),
  commandHardLimitSec: limits.commandHardLimitSec == null ? '' : String(limits.commandHardLimitSec)
})

export type LimitsCheck =
  { ok: true; limits: LimitsInput } | { ok: false; errors: Partial<Record<keyof LimitsDraft, string>> }

/** Parses the form: whole numbers ≥ 0 for the counters, blank caps mean "no cap". */
export function parseLimits(draft: LimitsDraft): LimitsCheck {
  const errors: Partial<Record<keyof LimitsDraft, string>> = {}
  const count = (key: 'mistakeLimit' | 'repetitionLimit'): number => {
    const value = Number(draft[key])
    if (draft[key].trim() === '' || !Number.isInteger(value) || value < 0 || value > 100)
      errors[key] = 'A whole number from 0 (off) to 100.'
    return value
  }
  const cap = (key: 'maxRequests' | 'maxCostUsd' | 'commandHardLimitSec', integer: boolean): number | null => {
    if (draft[key].trim() === '') return null
    const value = Number(draft[key])
    if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
      errors[key] = integer ? 'A whole number above 0, or blank for no cap.' : 'An amount above 0, or blank for no cap.'
    return value
  }
  const limits = {
    mistakeLimit: count('mistakeLimit'),
    repetitionLimit: count('repetitionLimit'),
    maxRequests: cap('maxRequests', true),
    maxCostUsd: cap('maxCostUsd', false),
    commandHardLimitSec: cap('commandHardLimitSec', true)
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, limits }
}

const FIELDS: Array<{ key: keyof LimitsDraft; label: string; hint: string }> = [
  { key: 'mistakeLimit', label: 'Consecutive mistakes before asking for guidance', hint: '0 turns it off' },
  { key: 'repetitionLimit', label: 'Identical calls in a row before asking', hint: '0 turns it off' },
  { key: 'maxRequests', label: 'Model requests per task before asking', hint: 'blank: no cap' },
  { key: 'maxCostUsd', label: 'Cost per task before asking (USD)', hint: 'blank: no cap' },
  { key: 'commandHardLimitSec', label: 'Kill a command after (seconds)', hint: 'blank: no limit' }
]

/** Global limits of the agent loop; a mode's own caps override the two caps here. */
export function LimitsForm(): ReactNode {
  const client = useClient()
  const limits = useSettingsStore((state) => state.settings?.limits)
  const section = useSectionDraft('settings:limits', 'Limits', limits ? toDraft(limits) : null)
  const draft = section.draft
  if (!draft) return null
  const check = parseLimits(draft)
  const errors = check.ok ? {} : check.errors

  const save = async () => {
    if (!check.ok) return
    const problem = await useSettingsStore.getState().save(client, 'settings:saveLimits', check.limits)
    const saved = useSettingsStore.getState().settings?.limits
    if (!problem && saved) section.reset(toDraft(saved))
    section.done(problem, 'Limits saved.')
  }

  return (
    <SettingsForm
      name="Limits"
      className="limits-form"
      dirty={section.dirty}
      valid={check.ok}
      status={section.status}
      error={section.error}
      onSave={() => void save()}
    >
      {FIELDS.map(({ key, label, hint }) => (
        <Field
          key={key}
          label={label}
          hint={hint}
          error={errors[key]}
          touched={section.touched(key)}
          onTouch={() => section.touch(key)}
        >
          {(input) => (
            <input
              {...input}
              inputMode="decimal"
              value={draft[key]}
              placeholder={hint}
              onChange={(event) => section.set(key, event.target.value)}
            />
          )}
        </Field>
      ))}
    </SettingsForm>
  )
}
