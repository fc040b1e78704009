import { useEffect, useId, useLayoutEffect, useState, type FormEvent, type ReactNode } from 'react'
import { FormError } from './FormError'
import { useUnsavedStore } from './unsaved-changes'

/**
 * The one layout of every Settings section: a form whose fields have their label above the input
 * and their hint (or, once the user has typed or left the field, its error) below, and one Save
 * button at the end that is enabled only when something changed. Other sections (any feature) use
 * these pieces so they look and save alike; see README "Settings".
 */

/** What a field's input needs from its Field: its id, what describes it, and whether it is invalid. */
export interface FieldInputProps {
  id: string
  'aria-describedby': string
  'aria-invalid': boolean | undefined
  onBlur: () => void
}

export function Field(props: {
  label: string
  hint?: string
  /** The field's problem; shown only once the field was touched (typed in or left). */
  error?: string | null
  touched: boolean
  onTouch: () => void
  children: (input: FieldInputProps) => ReactNode
}): ReactNode {
  const id = useId()
  const shownError = props.touched && props.error ? props.error : null
  return (
    <div className="settings-field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        'aria-describedby': `${id}-note`,
        'aria-invalid': shownError ? true : undefined,
        onBlur: props.onTouch
      })}
      <span id={`${id}-note`} className={shownError ? 'field-error' : 'note'}>
        {shownError ?? props.hint ?? ''}
      </span>
    </div>
  )
}

/** A section's form: its fields, then its one Save button with what happened. */
export function SettingsForm(props: {
  /** Names the Save button ("Save limits") and, unless `label` is given, the form. */
  name: string
  label?: string
  dirty: boolean
  valid: boolean
  status: string | null
  error: string | null
  onSave: () => void
  /** Secondary actions beside Save (e.g. "Turn semantic search off"). */
  extra?: ReactNode
  className?: string
  children: ReactNode
}): ReactNode {
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (props.dirty && props.valid) props.onSave()
  }
  return (
    <form
      className={`settings-form ${props.className ?? ''}`}
      aria-label={props.label ?? props.name}
      onSubmit={submit}
      noValidate
    >
      {props.children}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!props.dirty || !props.valid}>
          Save {props.name.replace(/^[A-Z](?=[a-z])/, (first) => first.toLowerCase())}
        </button>
        {props.extra}
        <span className="note" role="status">
          {props.dirty ? 'Unsaved changes' : props.status}
        </span>
      </div>
      <FormError message={props.error} />
    </form>
  )
}

/**
 * A section's editing state: the draft started from what is saved (and following it while
 * untouched), which fields were touched, whether it differs from the saved value, and the guard
 * that asks before leaving it unsaved.
 */
export function useSectionDraft<D extends Record<string, string>>(key: string, label: string, saved: D | null) {
  const [draft, setDraft] = useState<D | null>(saved)
  const [touched, setTouched] = useState<Partial<Record<keyof D, boolean>>>({})
  const [status, setStatus] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const savedText = saved ? JSON.stringify(saved) : null
  const dirty = draft !== null && savedText !== null && JSON.stringify(draft) !== savedText
  useEffect(() => {
    // What is saved changed (loaded, or saved here or elsewhere): an untouched form shows it.
    if (saved && !dirty) setDraft(saved)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the saved value by its text
  }, [savedText])
  const mark = useUnsavedStore((state) => state.mark)
  // Before the next key: Preact runs effects a frame later, and a shortcut typed right after an edit
  // (Alt+1 to leave) must already find the section unsaved.
  useLayoutEffect(() => {
    mark(key, label, dirty)
  }, [mark, key, label, dirty])
  useEffect(() => () => mark(key, label, false), [mark, key, label])
  return {
    draft,
    dirty,
    status,
    error,
    touched: (field: keyof D) => Boolean(touched[field]),
    touch: (field: keyof D) => setTouched((state) => ({ ...state, [field]: true })),
    set(field: keyof D, value: string) {
      setStatus(null)
      setDraft((current) => (current ? { ...current, [field]: value } : current))
      setTouched((state) => ({ ...state, [field]: true }))
    },
    /** After a save: the core's answer or the problem it named. */
    done(problem: string | null, message: string) {
      setError(problem)
      if (problem) return
      setTouched({})
      setStatus(message)
    },
    /** Shows the saved value again (after a save the core may normalise it). */
    reset(next: D) {
      setDraft(next)
    }
  }
}
