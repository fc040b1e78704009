import { FormError } from '../../components/FormError'
import { useEffect, useId, useState, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { useWorkspaceStore } from '../../common/workspace/workspace-store'
import { focusOnMount } from '../../components/focus-after'

export interface WorkspacePickerProps {
  /** The first folder (a page of its own) or a switch from the header (a dialog). */
  variant?: 'first' | 'switch'
  /** Called once a folder is open (the core checked it; `opened` true), or when the user cancels a switch. */
  onDone?: (opened: boolean) => void
}

/**
 * Opens a project folder: the native dialog in the desktop app; in the browser a path field that
 * completes folder names as the user types, and the recent folders. The core checks the path.
 */
export function WorkspacePicker({ variant = 'first', onDone }: WorkspacePickerProps): ReactNode {
  const client = useClient()
  const recent = useWorkspaceStore((state) => state.recent)
  const current = useWorkspaceStore((state) => state.current?.root)
  const [path, setPath] = useState('')
  const [completions, setCompletions] = useState<string[]>([])
  const [error, setError] = useState<string | null>(null)
  const native = Boolean(window.modus)
  const ids = useId()
  const Heading = variant === 'first' ? 'h1' : 'h2'
  const SubHeading = variant === 'first' ? 'h2' : 'h3'

  useEffect(() => {
    void useWorkspaceStore.getState().loadRecent(client)
  }, [client])

  // Suggestions follow the typed path (a short pause first, so typing is not a request per key).
  useEffect(() => {
    if (!path.trim()) return setCompletions([])
    let live = true
    const timer = setTimeout(() => {
      void useWorkspaceStore
        .getState()
        .complete(client, path)
        .then((folders) => {
          if (live && folders) setCompletions(folders)
        })
    }, 120)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [client, path])

  const opened = (): void => {
    setPath('')
    onDone?.(true)
  }

  const open = async (folder: string): Promise<void> => {
    setError(null)
    const problem = await useWorkspaceStore.getState().open(client, folder)
    if (problem) return setError(problem)
    opened()
  }

  const browse = async (): Promise<void> => {
    const picked = await useWorkspaceStore.getState().pick(client)
    if (picked.error) setError(picked.error)
    else if (picked.opened) opened()
  }

  const others = recent.filter((folder) => folder !== current)
  return (
    <section
      className={variant === 'first' ? 'workspace-picker' : 'workspace-picker workspace-switcher'}
      aria-labelledby={`${ids}-title`}
      role={variant === 'switch' ? 'dialog' : undefined}
      onKeyDown={(event) => {
        if (variant === 'switch' && event.key === 'Escape') onDone?.(false)
      }}
    >
      <Heading id={`${ids}-title`}>{variant === 'first' ? 'Open a project folder' : 'Switch folder'}</Heading>
      {variant === 'switch' && current && <p className="note">Open now: {current}</p>}
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
        <label htmlFor={`${ids}-path`}>Folder path</label>
        <div className="row">
          <input
            id={`${ids}-path`}
            value={path}
            placeholder="/home/you/project"
            list={`${ids}-completions`}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setPath(event.target.value)}
            ref={focusOnMount}
          />
          <button type="submit" disabled={!path.trim()}>
            Open
          </button>
          {variant === 'switch' && (
            <button type="button" onClick={() => onDone?.(false)}>
              Cancel
            </button>
          )}
        </div>
        <datalist id={`${ids}-completions`}>
          {completions.map((folder) => (
            <option key={folder} value={folder} />
          ))}
        </datalist>
      </form>
      <FormError message={error} />
      {others.length > 0 && (
        <>
          <SubHeading className="recent-title">Recent</SubHeading>
          <ul className="recent-list" aria-label="Recent folders">
            {others.map((folder) => (
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
