import { useId, type ReactNode } from 'react'
import { TOGGLES, type DraftErrors, type ModeDraft, type ToggleKey } from './mode-draft'

interface Props {
  draft: ModeDraft
  errors: DraftErrors
  onToggle(key: ToggleKey, on: boolean): void
  onNumber(key: 'followupTimeoutSeconds' | 'maxRequests' | 'maxCostUsd', value: string): void
}

/** The mode's own auto-approve set. A toggle turns "ask" into "allow"; it never lifts a deny. */
export function AutoApproveFields({ draft, errors, onToggle, onNumber }: Props): ReactNode {
  const ids = useId()
  const number = (
    key: 'followupTimeoutSeconds' | 'maxRequests' | 'maxCostUsd',
    label: string,
    hint: string,
    disabled = false
  ) => (
    <div className="field">
      <label htmlFor={`${ids}-${key}`}>{label}</label>
      <input
        id={`${ids}-${key}`}
        inputMode="decimal"
        value={draft[key]}
        disabled={disabled}
        placeholder={hint}
        aria-invalid={Boolean(errors[key])}
        aria-describedby={errors[key] ? `${ids}-${key}-error` : undefined}
        onChange={(event) => onNumber(key, event.target.value)}
      />
      {errors[key] && (
        <p className="field-error" id={`${ids}-${key}-error`}>
          {errors[key]}
        </p>
      )}
    </div>
  )
  return (
    <fieldset className="auto-approve">
      <legend>Auto-approve in this mode</legend>
      <p className="note">
        Everything else asks. Writes outside the workspace, protected files and “always ask” commands always ask.
      </p>
      <div className="toggles">
        {TOGGLES.map(({ key, label }) => (
          <label key={key} className="toggle">
            <input
              type="checkbox"
              role="switch"
              checked={draft.toggles[key]}
              aria-checked={draft.toggles[key]}
              onChange={(event) => onToggle(key, event.target.checked)}
            />
            <span>{label}</span>
          </label>
        ))}
      </div>
      <div className="numbers">
        {number('followupTimeoutSeconds', 'Follow-up answer timeout (seconds)', 'default 60', !draft.toggles.followup)}
        {number('maxRequests', 'Request cap per task', 'global cap')}
        {number('maxCostUsd', 'Cost cap per task (USD)', 'global cap')}
      </div>
    </fieldset>
  )
}
