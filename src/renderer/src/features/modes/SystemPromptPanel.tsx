import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { PromptPreview } from '../../../../shared/contract/prompt'
import { FormError } from '../../components/FormError'

/**
 * "View system prompt" for a mode (as Roo's Prompts view offers): what the mode sends on every
 * request in the open folder — the prompt text, the tools offered, the rule files included with
 * their o200k tokens, and the files skipped with why. Read-only; the text can be copied.
 */
export function SystemPromptToggle(props: { modeName: string; load: () => Promise<PromptPreview> }): ReactNode {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  return (
    <div className="system-prompt-toggle">
      <button ref={button} type="button" aria-expanded={open} onClick={() => setOpen((shown) => !shown)}>
        {open ? 'Hide system prompt' : 'View system prompt'}
      </button>
      {open && (
        <SystemPromptPanel
          modeName={props.modeName}
          load={props.load}
          onClose={() => {
            setOpen(false)
            button.current?.focus()
          }}
        />
      )}
    </div>
  )
}

function SystemPromptPanel(props: {
  modeName: string
  load: () => Promise<PromptPreview>
  onClose: () => void
}): ReactNode {
  const [preview, setPreview] = useState<PromptPreview | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [copied, setCopied] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)
  // Built once per opening (the toggle is keyed by mode): hide and view again to see a saved edit.
  const load = useRef(props.load)
  useEffect(() => {
    let live = true
    load.current().then(
      (next) => live && setPreview(next),
      (failure: Error) => live && setError(failure.message)
    )
    return () => {
      live = false
    }
  }, [])
  useEffect(() => {
    heading.current?.focus()
  }, [])
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied('System prompt copied.')
    } catch (failure) {
      setCopied(`Could not copy: ${(failure as Error).message}`)
    }
  }
  const title = `System prompt of ${props.modeName}`
  return (
    <section className="system-prompt" aria-label={title}>
      <div className="system-prompt-header">
        <h2 ref={heading} tabIndex={-1}>
          {title}
        </h2>
        <button type="button" disabled={!preview} onClick={() => preview && void copy(preview.system)}>
          Copy
        </button>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
        <span className="note" role="status">
          {copied}
        </span>
      </div>
      <FormError message={error} />
      {!preview && !error && <p className="note">Building the prompt…</p>}
      {preview && <PromptParts preview={preview} />}
    </section>
  )
}

function PromptParts({ preview }: { preview: PromptPreview }): ReactNode {
  return (
    <>
      <p className="note">
        As the mode is saved, in this folder: system prompt {preview.systemTokens} + tool definitions{' '}
        {preview.toolTokens} = {preview.systemTokens + preview.toolTokens} tokens (o200k) on every request.
      </p>
      <h3>Rule files included ({preview.rules.length})</h3>
      {preview.rules.length === 0 ? (
        <p className="note">None: this folder has no rule files for this mode.</p>
      ) : (
        <table className="prompt-rules" aria-label="Rule files included">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Tokens</th>
              <th scope="col">Applies</th>
            </tr>
          </thead>
          <tbody>
            {preview.rules.map((rule) => (
              <tr key={rule.path}>
                <td className="mono">{rule.path}</td>
                <td>{rule.tokens}</td>
                <td>{rule.appliesTo ?? 'always'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview.skipped.length > 0 && (
        <>
          <h3>Rule files skipped ({preview.skipped.length})</h3>
          <ul className="prompt-skipped" aria-label="Rule files skipped">
            {preview.skipped.map((skip) => (
              <li key={skip.path}>
                <span className="mono">{skip.path}</span>: {skip.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Tools offered ({preview.tools.length})</h3>
      <ul className="prompt-tools" aria-label="Tools offered">
        {preview.tools.map((tool) => (
          <li key={tool} className="mono">
            {tool}
          </li>
        ))}
      </ul>
      <h3>Prompt text</h3>
      {/* Focusable so a keyboard user can scroll it and select its text. */}
      <pre className="prompt-text" tabIndex={0} aria-label="System prompt text">
        {preview.system}
      </pre>
    </>
  )
}
