import { useEffect, useId, useState, type ReactNode } from 'react'
import { FormError } from '../../components/FormError'
import { useClient } from '../../client/client-context'
import { useSettingsStore } from '../../common/settings/settings-store'

/** The browser tool: which Chromium it drives (or how to install one) and the page size it opens with. */
export function BrowserSettings(): ReactNode {
  const client = useClient()
  const id = useId()
  const browser = useSettingsStore((state) => state.settings?.browser)
  const [draft, setDraft] = useState({ width: '', height: '' })
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const width = browser?.viewport.width
  const height = browser?.viewport.height
  useEffect(() => {
    if (width !== undefined && height !== undefined) setDraft({ width: String(width), height: String(height) })
  }, [width, height])
  if (!browser) return null

  const save = async () => {
    setSaved(false)
    const viewport = { width: Number(draft.width), height: Number(draft.height) }
    const fits = (value: number, max: number) => Number.isInteger(value) && value >= 200 && value <= max
    if (!fits(viewport.width, 3840) || !fits(viewport.height, 2160))
      return setError('The viewport must be whole pixels, from 200x200 to 3840x2160.')
    const problem = await useSettingsStore.getState().save(client, 'settings:saveBrowser', { viewport })
    if (problem) return setError(problem)
    setError(null)
    setSaved(true)
  }

  return (
    <div className="browser-settings">
      {browser.chromium.found ? (
        <p className="note">
          browser_action drives <code>{browser.chromium.path}</code> ({browser.chromium.source}).
        </p>
      ) : (
        <p className="form-error" role="alert">
          The browser tool cannot run: {browser.chromium.advice}
        </p>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <label htmlFor={`${id}-width`}>Viewport width (px)</label>
        <input
          id={`${id}-width`}
          inputMode="numeric"
          value={draft.width}
          onChange={(e) => setDraft({ ...draft, width: e.target.value })}
        />
        <label htmlFor={`${id}-height`}>Viewport height (px)</label>
        <input
          id={`${id}-height`}
          inputMode="numeric"
          value={draft.height}
          onChange={(e) => setDraft({ ...draft, height: e.target.value })}
        />
        <button type="submit">Save browser settings</button>
        {saved && <span role="status">Saved</span>}
      </form>
      <FormError message={error} />
    </div>
  )
}
