import { FormError } from '../../components/FormError'
import { useEffect, useState, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { useWorkspaceStore } from './workspace-store'

/** Opens a project folder: the native dialog in the desktop app, a path field in the browser. */
export function WorkspacePicker(): ReactNode {
  const client = useClient()
  const recent = useWorkspaceStore((state) => state.recent)
  const [path, setPath] = useState('')
  const [error, setError] = useState<string | null>(null)
  const native = Boolean(window.modus)

  useEffect(() => {
    void client.request('workspace:recent', {}).then((result) => {
      if (result.ok) useWorkspaceStore.getState().setRecent(result.value)
    })
  }, [client])

  const open = async (folder: string): Promise<void> => {
    setError(null)
    const result = await client.request('workspace:open', { path: folder })
    if (result.ok) useWorkspaceStore.getState().setCurrent(result.value)
    else setError(result.error.message)
  }

  const browse = async (): Promise<void> => {
    const result = await client.request('workspace:pick', {})
    if (!result.ok) setError(result.error.message)
    else if (result.value) useWorkspaceStore.getState().setCurrent(result.value)
  }

  return (
    <section className="workspace-picker" aria-labelledby="open-folder-title">
      <h1 id="open-folder-title">Open a project folder</h1>
      {native && (
        <button type="button" onClick={() => void browse()}>
          Choose folder…
        </button>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (path.trim()) void open(path)
        }}
      >
        <label htmlFor="workspace-path">Folder path</label>
        <div className="row">
          <input
            id="workspace-path"
            value={path}
            placeholder="/home/you/project"
            onChange={(event) => setPath(event.target.value)}
            autoFocus
          />
          <button type="submit" disabled={!path.trim()}>
            Open
          </button>
        </div>
      </form>
      <FormError message={error} />
      {recent.length > 0 && (
        <>
          <h2>Recent</h2>
          <ul className="recent-list">
            {recent.map((folder) => (
              <li key={folder}>
                <button type="button" className="link" onClick={() => void open(folder)}>
                  {folder}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
