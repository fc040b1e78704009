import { useEffect, useRef, type ReactNode } from 'react'
import type { HookEntry } from '../../../../shared/contract/hooks'
import { HOOK_EVENTS, MAX_HOOK_TIMEOUT_SEC, type HookEvent } from '../../../../shared/hooks/schema'
import { Field, SettingsForm, useSectionDraft, type FieldInputProps } from '../../components/SettingsForm'
import { firstFocusable } from '../../components/focus-after'
import { checkDraft, EVENT_WORDS, isToolEvent, type HookDraft } from './hook-draft'

/**
 * One global hook, added or edited, in the Settings form layout: each field's problem under it (the
 * contract's schema decides), one Save. `onSave` answers the core's problem, or null once saved.
 */
export function HookForm(props: {
  title: string
  saved: HookDraft
  onSave: (hook: HookEntry) => Promise<string | null>
  onCancel: () => void
}): ReactNode {
  const section = useSectionDraft<HookDraft>('settings:hook', 'Hooks', props.saved)
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => {
    firstFocusable(root.current)?.focus()
  }, [])
  const draft = section.draft ?? props.saved
  const checked = checkDraft(draft)
  const errors = checked.ok ? {} : checked.errors
  const save = async () => {
    if (!checked.ok) return
    section.done(await props.onSave(checked.hook), 'Hook saved.')
  }
  const field = (name: keyof HookDraft, label: string, hint: string, input: (input: FieldInputProps) => ReactNode) => (
    <Field
      label={label}
      hint={hint}
      error={errors[name]}
      touched={section.touched(name)}
      onTouch={() => section.touch(name)}
    >
      {input}
    </Field>
  )
  return (
    <div className="hook-form card" ref={root}>
      <h3 className="settings-subtitle">{props.title}</h3>
      <SettingsForm
        name="Hook"
        label={props.title}
        dirty={section.dirty}
        valid={checked.ok}
        status={section.status}
        error={section.error}
        onSave={() => void save()}
        extra={
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        }
      >
        {field('event', 'Event', EVENT_WORDS[draft.event as HookEvent] ?? '', (input) => (
          <select {...input} value={draft.event} onChange={(event) => section.set('event', event.target.value)}>
            {HOOK_EVENTS.map((event) => (
              <option key={event} value={event}>
                {event}
              </option>
            ))}
          </select>
        ))}
        {isToolEvent(draft.event) &&
          field(
            'matcher',
            'Tools (matcher)',
            'A regular expression for the whole tool name, Modus’s or Claude Code’s (Bash, Edit|Write); empty for every tool.',
            (input) => (
              <input
                {...input}
                className="mono"
                value={draft.matcher}
                onChange={(event) => section.set('matcher', event.target.value)}
              />
            )
          )}
        {field(
          'command',
          'Command',
          'Run with /bin/sh in the workspace; it gets the call as JSON on stdin and answers with JSON on stdout (exit code 2 blocks).',
          (input) => (
            <input
              {...input}
              className="mono"
              value={draft.command}
              onChange={(event) => section.set('command', event.target.value)}
            />
          )
        )}
        {field(
          'timeout',
          'Time limit (seconds)',
          `Empty for 30 s; at most ${MAX_HOOK_TIMEOUT_SEC}. A hook that runs longer is stopped and its call asks.`,
          (input) => (
            <input
              {...input}
              inputMode="decimal"
              value={draft.timeout}
              onChange={(event) => section.set('timeout', event.target.value)}
            />
          )
        )}
        {field('name', 'Name (optional)', 'What approvals and reports call it; the command otherwise.', (input) => (
          <input {...input} value={draft.name} onChange={(event) => section.set('name', event.target.value)} />
        ))}
        {field(
          'modes',
          'Only in modes (optional)',
          'Mode slugs, separated by commas; empty for every mode.',
          (input) => (
            <input
              {...input}
              className="mono"
              value={draft.modes}
              onChange={(event) => section.set('modes', event.target.value)}
            />
          )
        )}
      </SettingsForm>
    </div>
  )
}
