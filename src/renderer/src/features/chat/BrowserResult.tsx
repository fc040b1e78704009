import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { browserFacts } from './browser-result'
import type { ToolItem } from '../../common/chat/task-view'
import { focusOnMount } from '../../components/focus-after'

/** A browser action's screenshot (click to enlarge), the page's URL and its console, shown on the card. */
export function BrowserResult({ result }: { result: NonNullable<ToolItem['result']> }): ReactNode {
  const facts = browserFacts(result.text)
  const shot = result.images?.[0]
  const [enlarged, setEnlarged] = useState(false)
  const thumbnail = useRef<HTMLButtonElement>(null)
  // Closing the full-size view (Esc, a click, Close) gives the focus back to the thumbnail that opened it.
  const close = (): void => {
    setEnlarged(false)
    requestAnimationFrame(() => thumbnail.current?.focus())
  }
  // In the commit that opens it, so an Esc pressed at once is heard (Preact runs effects a frame later).
  useLayoutEffect(() => {
    if (!enlarged) return
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [enlarged])
  if (!facts.url && !shot) return null
  const src = shot ? `data:${shot.mediaType};base64,${shot.dataBase64}` : ''
  const logs = [...facts.console, ...facts.errors.map((error) => `[page error] ${error}`)]
  return (
    <div className="browser-result">
      {facts.url && (
        <p className="browser-url">
          <span className="note">URL </span>
          <code>{facts.url}</code>
        </p>
      )}
      {shot && (
        <button
          ref={thumbnail}
          type="button"
          className="browser-shot"
          aria-label="Enlarge the screenshot"
          onClick={() => setEnlarged(true)}
        >
          <img src={src} alt={`Screenshot of ${facts.url ?? 'the page'}`} />
        </button>
      )}
      {logs.length > 0 && (
        <pre className="browser-console" aria-label="Console output">
          {logs.join('\n')}
        </pre>
      )}
      {enlarged &&
        createPortal(
          <div className="browser-shot-large" role="dialog" aria-modal="true" aria-label="Screenshot" onClick={close}>
            <img src={src} alt={`Screenshot of ${facts.url ?? 'the page'}, full size`} />
            <button type="button" ref={focusOnMount} onClick={close}>
              Close
            </button>
          </div>,
          document.body
        )}
    </div>
  )
}
