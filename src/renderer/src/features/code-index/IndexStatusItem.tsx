import { useEffect, useState, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { statusBarView, useCodeIndexStore } from './code-index-store'

/** The status bar's index item: build progress with Cancel, Resume after a cancel, the state otherwise. */
export function IndexStatusItem(props: { workspace: string }): ReactNode {
  const client = useClient()
  const status = useCodeIndexStore((state) => state.status)
  const [error, setError] = useState<string | null>(null)

  // The build may have started before this view existed (auto-start on open, or another window).
  useEffect(() => {
    void useCodeIndexStore.getState().load(client)
  }, [client, props.workspace])

  if (!status || status.workspace !== props.workspace) return null
  const view = statusBarView(status)
  const act = async (kind: 'cancel' | 'resume') => setError(await useCodeIndexStore.getState().run(client, kind))
  return (
    <div className="status-item index-status" aria-label="Codebase index" title={error ?? status.message}>
      <span role="status">{view.label}</span>
      {view.progress && (
        <progress max={Math.max(view.progress.total, 1)} value={view.progress.done} aria-label="Indexing progress" />
      )}
      {view.action && (
        <button type="button" onClick={() => void act(view.action!.kind)} aria-label={view.action.name}>
          {view.action.label}
        </button>
      )}
      {error && <span role="alert">{error}</span>}
    </div>
  )
}
