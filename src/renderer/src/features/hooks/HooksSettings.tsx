import './hooks.css'
import { useState, type ReactNode } from 'react'
import type { HookEntry, ProjectHooks } from '../../../../shared/contract/hooks'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { useSettingsListing } from '../../components/use-settings-listing'
import { useWorkspaceStore } from '../../common/workspace/workspace-store'
import { ClaudeImportPanel } from './ClaudeImportPanel'
import { draftOf, EMPTY_DRAFT } from './hook-draft'
import { HookForm } from './HookForm'
import { HookTable } from './HookTable'

/** Which of the user's hooks the form edits: a new one, or the one at this index of the list. */
type Editing = { kind: 'new' } | { kind: 'edit'; index: number } | null

/**
 * Settings → Hooks: the hooks in force and where each comes from. The user's global hooks are added,
 * edited and removed here, or imported from Claude Code; the project's are shown with whether the
 * folder's trust lets them run (they are edited in the project's own file).
 */
export function HooksSettings(): ReactNode {
  const client = useClient()
  const workspace = useWorkspaceStore((state) => state.current)
  const { listing, setListing, error, setError, announce, statusLine } = useSettingsListing('hooks:list', [
    workspace?.root,
    workspace?.trusted
  ])
  const [editing, setEditing] = useState<Editing>(null)
  const [importing, setImporting] = useState(false)
  const saveList = async (hooks: HookEntry[]): Promise<string | null> => {
    const result = await client.request('hooks:saveGlobal', { hooks })
    if (!result.ok) return result.error.message
    setListing(result.value)
    return null
  }
  const own = listing?.global.hooks ?? []
  const saveHook = async (hook: HookEntry): Promise<string | null> => {
    const next = editing?.kind === 'edit' ? own.map((h, i) => (i === editing.index ? hook : h)) : [...own, hook]
    const problem = await saveList(next)
    if (!problem) {
      setEditing(null)
      announce('Hook saved.')
    }
    return problem
  }
  const remove = async (index: number) => {
    setError(null)
    const removed = own[index]
    const problem = await saveList(own.filter((_, i) => i !== index))
    if (problem) setError(problem)
    else announce(`Removed the ${removed.event} hook ${removed.name ?? removed.command}.`)
  }
  const importHooks = async (hooks: HookEntry[]): Promise<string | null> => {
    const result = await client.request('hooks:importClaude', { hooks })
    if (!result.ok) return result.error.message
    setListing(result.value.listing)
    setImporting(false)
    const already = hooks.length - result.value.added
    announce(
      `Imported ${result.value.added} hook${result.value.added === 1 ? '' : 's'} into your hooks${already > 0 ? ` (${already} you already had)` : ''}.`
    )
    return null
  }

  return (
    <div className="hooks-settings">
      <h3 className="settings-subtitle">Your hooks</h3>
      {listing && <p className="note mono">{listing.global.file}</p>}
      {listing?.global.problems.map((problem) => (
        <p key={problem} className="form-error">
          {problem} (its tool calls ask until the file is fixed)
        </p>
      ))}
      {listing && own.length === 0 && (
        <p className="note">None yet. They run in every folder, without a trust prompt.</p>
      )}
      {own.length > 0 && (
        <HookTable
          label="Your hooks"
          hooks={own}
          actions={(hook, index) => (
            <>
              <button
                type="button"
                aria-label={`Edit the ${hook.event} hook ${hook.name ?? hook.command}`}
                onClick={() => setEditing({ kind: 'edit', index })}
              >
                Edit
              </button>
              <button
                type="button"
                className="danger"
                aria-label={`Remove the ${hook.event} hook ${hook.name ?? hook.command}`}
                onClick={() => void remove(index)}
              >
                Remove
              </button>
            </>
          )}
        />
      )}
      {editing ? (
        <HookForm
          key={editing.kind === 'edit' ? `edit-${editing.index}` : 'new'}
          title={editing.kind === 'edit' ? 'Edit hook' : 'New hook'}
          saved={editing.kind === 'edit' && own[editing.index] ? draftOf(own[editing.index]) : EMPTY_DRAFT}
          onSave={saveHook}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <div className="form-actions">
          <button type="button" onClick={() => setEditing({ kind: 'new' })}>
            Add hook
          </button>
          <button type="button" aria-expanded={importing} onClick={() => setImporting((open) => !open)}>
            Import from Claude Code…
          </button>
        </div>
      )}
      {importing && <ClaudeImportPanel onImport={importHooks} onClose={() => setImporting(false)} />}
      {statusLine}
      <FormError message={error} />
      {listing?.project && <ProjectHooksList project={listing.project} />}
    </div>
  )
}

/** Whether the project's hooks run, in words. */
function projectState(project: ProjectHooks): string {
  if (project.inForce) return 'In force: this folder is trusted with these hooks.'
  if (project.folderTrusted) return 'Not in force: they changed since you trusted this folder; it asks again.'
  return 'Not in force until you trust this folder.'
}

/** The open folder's `.modus/hooks.yaml`: shown, with its trust state; edited in the file itself. */
function ProjectHooksList({ project }: { project: ProjectHooks }): ReactNode {
  const hasAny = project.hooks.length > 0 || project.problems.length > 0
  return (
    <>
      <h3 className="settings-subtitle">This project’s hooks</h3>
      <p className="note mono">{project.file}</p>
      {!hasAny && <p className="note">None: this folder has no hooks file.</p>}
      {hasAny && <p className={project.inForce ? undefined : 'warn-text'}>{projectState(project)}</p>}
      {hasAny && !project.inForce && (
        <button type="button" onClick={() => useWorkspaceStore.getState().requestTrustPrompt(true)}>
          Review trust for this folder…
        </button>
      )}
      {project.problems.map((problem) => (
        <p key={problem} className="form-error">
          {problem}
        </p>
      ))}
      {project.hooks.length > 0 && <HookTable label="This project’s hooks" hooks={project.hooks} />}
    </>
  )
}
