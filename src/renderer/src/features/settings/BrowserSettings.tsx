import type { ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { Field, SettingsForm, useSectionDraft } from '../../components/SettingsForm'
import { useSettingsStore } from '../../common/settings/settings-store'

type ViewportDraft = { width: string; height: string }

/** Whole pixels within the contract's bounds, or what is wrong in words. */
const pixels = (text: string, max: number): string | null => {
  const value = Number(text)
  return /^\d+$/.test(text.trim()) && value >= 200 && value <= max ? null : `Whole pixels from 200 to ${max}.`
}

/** The browser tool: which Chromium it drives (or how to install one) and the page size it opens with. */
export function BrowserSettings(): ReactNode {
  const client = useClient()
  const browser = useSettingsStore((state) => state.settings?.browser)
  const saved = browser ? { width: String(browser.viewport.width), height: String(browser.viewport.height) } : null
  const section = useSectionDraft<ViewportDraft>('settings:browser', 'Browser', saved)
  const draft = section.draft
  if (!browser || !draft) return null
  const errors = { width: pixels(draft.width, 3840), height: pixels(draft.height, 2160) }

  const save = async () => {
    const viewport = { width: Number(draft.width), height: Number(draft.height) }
    const problem = await useSettingsStore.getState().save(client, 'settings:saveBrowser', { viewport })
    if (!problem) section.reset({ width: String(viewport.width), height: String(viewport.height) })
    section.done(problem, 'Browser settings saved.')
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
      <SettingsForm
        name="Browser settings"
        dirty={section.dirty}
        valid={!errors.width && !errors.height}
        status={section.status}
        error={section.error}
        onSave={() => void save()}
      >
        <div className="settings-row">
          {(['width', 'height'] as const).map((key) => (
            <Field
              key={key}
              label={`Viewport ${key} (px)`}
              error={errors[key]}
              touched={section.touched(key)}
              onTouch={() => section.touch(key)}
            >
              {(input) => (
                <input
                  {...input}
                  inputMode="numeric"
                  value={draft[key]}
                  onChange={(event) => section.set(key, event.target.value)}
                />
              )}
            </Field>
          ))}
        </div>
      </SettingsForm>
    </div>
  )
}
