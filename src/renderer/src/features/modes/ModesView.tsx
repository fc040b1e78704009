import { FormError } from '../../components/FormError'
import { Icon } from '../../components/icons'
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { useWorkspaceStore } from '../../common/workspace/workspace-store'
import { createModesApi } from './client-modes-api'
import { ImportPanel } from './ImportPanel'
import { ExportAllPanel } from './ExportButtons'
import { ModeEditor } from './ModeEditor'
import { SystemPromptToggle } from './SystemPromptPanel'
import type { ModeEntry, ModesApi } from './modes-api'
import { ORIGIN_LABELS, useModesStore } from './modes-store'
import { grantsNeedTrust } from '../../../../shared/modes/schema'
import './modes.css'

/** The mode editor: built-in, global and project modes; create, duplicate, edit, delete, import, export. */
export function ModesView(): ReactNode {
  const client = useClient()
  const trusted = useWorkspaceStore((state) => state.current?.trusted ?? false)
  const api = useMemo(
    () => createModesApi(client, () => useWorkspaceStore.getState().current?.trusted ?? false),
    [client]
  )
  return <ModesScreen api={api} projectTrusted={trusted} />
}

/** `projectTrusted` follows the workspace's trust as it changes (the listing only knows it as of its fetch). */
export function ModesScreen({ api, projectTrusted }: { api: ModesApi; projectTrusted?: boolean }): ReactNode {
  const fetched = useModesStore((state) => state.listing)
  const listing = useMemo(
    () => (fetched && projectTrusted !== undefined ? { ...fetched, projectTrusted } : fetched),
    [fetched, projectTrusted]
  )
  const selection = useModesStore((state) => state.selection)
  const revision = useModesStore((state) => state.revision)
  const [importing, setImporting] = useState(false)
  const [exporting, setExporting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const main = useRef<HTMLDivElement>(null)

  // A newly picked mode opens at its top, not where the previous one was scrolled to.
  useEffect(() => {
    main.current?.scrollTo?.({ top: 0 })
  }, [selection])

  useEffect(() => {
    let live = true
    api.list().then(
      (next) => live && useModesStore.getState().setListing(next),
      (failure: Error) => live && setError(failure.message)
    )
    return () => {
      live = false
    }
  }, [api])

  const selected = selection?.kind === 'mode' ? listing?.modes.find((mode) => mode.slug === selection.slug) : undefined
  return (
    <section className="modes-view" aria-label="Modes">
      <aside className="modes-sidebar">
        <h1>Modes</h1>
        <div className="row">
          <button type="button" onClick={() => useModesStore.getState().select({ kind: 'new' })}>
            <Icon name="plus" />
            New mode
          </button>
          <button type="button" aria-expanded={importing} onClick={() => setImporting((open) => !open)}>
            Import…
          </button>
          <button type="button" aria-expanded={exporting} onClick={() => setExporting((open) => !open)}>
            Export all…
          </button>
        </div>
        {listing && <ModeList modes={listing.modes} trusted={listing.projectTrusted} selectedSlug={selected?.slug} />}
      </aside>
      <div className="modes-main" ref={main}>
        <FormError message={error} />
        {listing?.problems.map((problem) => (
          <p key={`${problem.file}:${problem.line}:${problem.message}`} className="form-error" role="alert">
            {problem.file}
            {problem.line ? ` line ${problem.line}` : ''}: {problem.message} (the file is kept as it is until you fix
            it)
          </p>
        ))}
        {importing && <ImportPanel api={api} onClose={() => setImporting(false)} />}
        {exporting && <ExportAllPanel api={api} onClose={() => setExporting(false)} />}
        {selection?.kind === 'new' ? (
          <ModeEditor
            key={`new-${revision}`}
            api={api}
            template={selection.template}
            initialScope={selection.scope}
            projectTrusted={listing?.projectTrusted ?? false}
          />
        ) : selected ? (
          <>
            {api.previewPrompt && (
              <SystemPromptToggle
                key={`prompt-${selected.slug}`}
                modeName={selected.name}
                load={() => api.previewPrompt!(selected.slug)}
              />
            )}
            <ModeEditor
              key={`${selected.origin}-${selected.slug}-${revision}`}
              api={api}
              entry={selected}
              projectTrusted={listing?.projectTrusted ?? false}
            />
          </>
        ) : (
          !importing && <p className="note">Pick a mode to edit it, or create a new one.</p>
        )}
      </div>
    </section>
  )
}

function ModeList({
  modes,
  trusted,
  selectedSlug
}: {
  modes: ModeEntry[]
  trusted: boolean
  selectedSlug?: string
}): ReactNode {
  const groups = (['project', 'global', 'builtin'] as const)
    .map((origin) => ({ origin, modes: modes.filter((mode) => mode.origin === origin) }))
    .filter((group) => group.modes.length > 0)
  return (
    <nav aria-label="Mode list">
      {groups.map((group) => (
        <div key={group.origin} className="mode-group">
          <h2>{ORIGIN_LABELS[group.origin]}</h2>
          <ul>
            {group.modes.map((mode) => (
              <li key={mode.slug}>
                <button
                  type="button"
                  className="mode-item"
                  aria-current={mode.slug === selectedSlug ? 'true' : undefined}
                  onClick={() => useModesStore.getState().select({ kind: 'mode', slug: mode.slug })}
                >
                  <span>{mode.name}</span>
                  <span className="note mono">{mode.slug}</span>
                  {mode.overridesBuiltIn && <span className="pill">override</span>}
                  {grantsNeedTrust(mode) && !trusted && <span className="pill warn">not trusted</span>}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  )
}
