import { useEffect, useId, useState, type ReactNode } from 'react'
import { regexProblem } from './mode-draft'
import type { ModesApi, RegexTest } from './modes-api'

interface Props {
  api: ModesApi
  value: string
  description: string
  disabled: boolean
  /** False without an open workspace: there are no files to match against. */
  canTest: boolean
  error?: string
  onChange(value: string): void
  onDescriptionChange(value: string): void
}

const SHOWN_MATCHES = 50

/** The edit group's file pattern, checked as it is typed, with the workspace files it matches. */
export function FileRegexField({ api, value, description, disabled, canTest, error, ...on }: Props): ReactNode {
  const ids = useId()
  const [test, setTest] = useState<RegexTest | null>(null)
  const [pending, setPending] = useState(false)
  const pattern = value.trim()
  const localProblem = pattern ? regexProblem(pattern) : null

  useEffect(() => {
    if (!pattern || localProblem || disabled || !canTest) {
      setTest(null)
      return
    }
    let live = true
    setPending(true)
    // Wait for a pause in typing before asking the core to walk the workspace.
    const timer = setTimeout(() => {
      void api
        .testRegex(pattern)
        .then((result) => live && setTest(result))
        .catch((failure: Error) => live && setTest({ ok: false, error: failure.message }))
        .finally(() => live && setPending(false))
    }, 250)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [api, pattern, localProblem, disabled, canTest])

  const shownError = error ?? localProblem ?? (test && !test.ok ? test.error : null)
  return (
    <div className="file-regex">
      <label htmlFor={`${ids}-regex`}>File pattern for edits (regular expression)</label>
      <input
        id={`${ids}-regex`}
        className="mono"
        value={value}
        disabled={disabled}
        placeholder="blank: any file, e.g. \.md$ or ^docs/"
        spellCheck={false}
        aria-invalid={Boolean(shownError)}
        aria-describedby={`${ids}-regex-status`}
        onChange={(event) => on.onChange(event.target.value)}
      />
      <div id={`${ids}-regex-status`} aria-live="polite">
        {shownError ? (
          <p className="field-error">{shownError}</p>
        ) : pattern && !disabled ? (
          <p className="note valid">
            {!canTest
              ? 'Valid pattern. Open a workspace to see which files it matches.'
              : pending
                ? 'Valid pattern — finding matching files…'
                : 'Valid pattern.'}
          </p>
        ) : null}
      </div>
      <label htmlFor={`${ids}-regex-description`}>Pattern description (shown to the model)</label>
      <input
        id={`${ids}-regex-description`}
        value={description}
        disabled={disabled || !pattern}
        placeholder="e.g. Markdown files only"
        onChange={(event) => on.onDescriptionChange(event.target.value)}
      />
      {test?.ok && !shownError && (
        <section className="regex-matches" aria-label="Matching files">
          <p className="note">{describeMatches(test.matches.length, test.scanned, test.truncated)}</p>
          <ul>
            {test.matches.slice(0, SHOWN_MATCHES).map((file) => (
              <li key={file} className="mono">
                {file}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}

export function describeMatches(count: number, scanned: number, truncated: boolean): string {
  if (count === 0) return `No file matches (${scanned} workspace files checked).`
  const files = `${count}${truncated ? '+' : ''} file${count === 1 && !truncated ? '' : 's'}`
  return `${files} of ${scanned} in the workspace match${count === 1 && !truncated ? 'es' : ''}.`
}
