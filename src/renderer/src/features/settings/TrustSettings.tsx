import type { ReactNode } from 'react'
import type { TrustedFolder } from '../../../../shared/contract/workspace'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { useSettingsListing } from '../../components/use-settings-listing'
import { useWorkspaceStore } from '../../common/workspace/workspace-store'

const when = (at: number): string => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** The open folder's trust state in words. */
function currentState(info: { trusted: boolean; trustAnswered: boolean; projectGrants: string[] } | null): string {
  if (!info) return 'No folder is open.'
  if (info.trusted)
    return 'Trusted: its project modes, rules, hooks and MCP servers apply, and its commands may run outside the sandbox.'
  if (info.trustAnswered)
    return 'Not trusted: its project permissions are off and its commands auto-run only inside the sandbox.'
  return info.projectGrants.length > 0
    ? 'Not answered yet: its project permissions are off until you trust it.'
    : 'Not trusted (its files grant nothing): its commands auto-run only inside the sandbox.'
}

/** Settings → Trust: this folder's state, every folder answered for, and revoke. */
export function TrustSettings(): ReactNode {
  const client = useClient()
  const workspace = useWorkspaceStore((state) => state.current)
  const { listing, setListing, error, setError, announce, statusLine } = useSettingsListing(
    'workspace:trustedFolders',
    [workspace?.trusted, workspace?.trustAnswered]
  )

  const revoke = async (folder: TrustedFolder): Promise<void> => {
    setError(null)
    const result = await client.request('workspace:revokeTrust', { root: folder.root })
    if (!result.ok) return setError(result.error.message)
    setListing(result.value)
    announce(`${folder.trusted ? 'Trust revoked' : 'Answer forgotten'} for ${folder.root}.`)
  }

  return (
    <div className="settings-section trust-settings">
      <h3 className="settings-subtitle">This folder</h3>
      {workspace && <p className="mono">{workspace.root}</p>}
      <p>{currentState(workspace)}</p>
      {workspace && !workspace.trusted && (
        <button type="button" onClick={() => useWorkspaceStore.getState().requestTrustPrompt(true)}>
          Review trust for this folder…
        </button>
      )}
      <h3 className="settings-subtitle">Folders you answered for</h3>
      {listing && listing.folders.length === 0 && (
        <p className="note">None yet: each folder asks when its files grant permissions.</p>
      )}
      {listing && listing.folders.length > 0 && (
        <ul className="trusted-folders" aria-label="Folders you answered for">
          {listing.folders.map((folder) => (
            <li key={folder.root}>
              <div>
                <span className="mono">{folder.root}</span>
                <span className="note">
                  {' '}
                  {folder.trusted ? 'trusted' : 'not trusted'} since {when(folder.at)}
                  {folder.grants.length > 0
                    ? ` · ${folder.grants.length} grant${folder.grants.length === 1 ? '' : 's'}`
                    : ''}
                </span>
              </div>
              <button
                type="button"
                className="danger"
                aria-label={`${folder.trusted ? 'Revoke trust' : 'Forget answer'} for ${folder.root}`}
                onClick={() => void revoke(folder)}
              >
                {folder.trusted ? 'Revoke' : 'Forget'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {listing?.problems.map((problem) => (
        <p key={problem} className="form-error">
          {problem}
        </p>
      ))}
      {statusLine}
      <FormError message={error} />
    </div>
  )
}
