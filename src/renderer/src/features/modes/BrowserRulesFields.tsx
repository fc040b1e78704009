import { useId, type ReactNode } from 'react'

/** Other origins the mode's browser opens without asking; local pages follow the auto-approve toggle. */
export function BrowserRulesFields(props: {
  allow: string
  disabled: boolean
  error?: string
  onChange(value: string): void
}): ReactNode {
  const ids = useId()
  return (
    <fieldset className="browser-rules">
      <legend>Browser URL allow rules</legend>
      <p className="note">
        Opening a page asks, since a page can send away what the model types into it. Local pages (localhost, 127.0.0.1,
        this workspace’s files) open unasked when “Open local pages in the browser” is on below. Any other page asks
        unless a rule here matches: one per line, an origin (<code>https://docs.example.com</code>) or a URL prefix (
        <code>https://example.com/app/</code>). A rule never covers a longer host name.
      </p>
      <div className="field">
        <label htmlFor={`${ids}-allow`}>Open without asking</label>
        <textarea
          id={`${ids}-allow`}
          className="mono"
          rows={3}
          value={props.allow}
          disabled={props.disabled}
          placeholder={'https://docs.example.com\nhttps://example.com/app/'}
          spellCheck={false}
          aria-invalid={Boolean(props.error)}
          aria-describedby={props.error ? `${ids}-allow-error` : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        />
      </div>
      {props.disabled && <p className="note">Turn on the Browser tool group to use these rules.</p>}
      {props.error && (
        <p className="field-error" id={`${ids}-allow-error`}>
          {props.error}
        </p>
      )}
    </fieldset>
  )
}
