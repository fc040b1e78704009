import { FormError } from '../../components/FormError'
import { TextWithCode } from '../../common/TextWithCode'
import { useState, type ReactNode } from 'react'
import type { WorkspaceInfo } from '../../../../shared/contract/workspace'
import { useClient } from '../../client/client-context'
import { useWorkspaceStore } from '../../common/workspace/workspace-store'
import { composerField, firstFocusable, focusOnMount, focusWhenReady } from '../../components/focus-after'

/**
 * Asked once per workspace whose own files grant permissions: a cloned repository is untrusted
 * input, so its auto-approve toggles and allow rules wait for the user's yes.
 */
export function TrustPrompt({ workspace, onClose }: { workspace: WorkspaceInfo; onClose?: () => void }): ReactNode {
  const client = useClient()
  const [error, setError] = useState<string | null>(null)

  const answer = async (trusted: boolean): Promise<void> => {
    const from = document.activeElement
    const problem = await useWorkspaceStore.getState().trust(client, trusted, workspace.grantsHash)
    if (problem) return setError(problem)
    onClose?.()
    // The prompt leaves with its buttons: the next thing to do is the task (or the provider form before it).
    focusWhenReady(() => composerField() ?? firstFocusable(document.querySelector('.app-main')), from)
  }

  return (
    <section className="trust-prompt" role="dialog" aria-labelledby="trust-title" aria-describedby="trust-body">
      <h2 id="trust-title">Trust “{workspace.name}”?</h2>
      <div id="trust-body">
        {workspace.newGrants.length > 0 ? (
          <>
            <p>Since you trusted it, this project’s files ask for more:</p>
            <ul aria-label="New permissions">
              {workspace.newGrants.map((grant) => (
                <li key={grant}>
                  <TextWithCode text={grant} />
                </li>
              ))}
            </ul>
            <p className="note">Until you answer, none of the project’s permissions apply.</p>
          </>
        ) : (
          <>
            <p>This project’s own files ask for these permissions:</p>
            <ul>
              {workspace.projectGrants.map((grant) => (
                <li key={grant}>
                  <TextWithCode text={grant} />
                </li>
              ))}
            </ul>
          </>
        )}
        {workspace.trustProblems.map((problem) => (
          <p key={problem} role="alert">
            {problem}
          </p>
        ))}
        <p className="note">
          Until you trust it, they do not apply and its MCP servers do not start: Modus asks instead. Deny and ask rules
          from the project always apply.
        </p>
        <p className="note">
          Its tests, package scripts, build files and git config are its code: until you trust it, commands run there
          only inside the OS sandbox (no network, credential stores unreadable, unless the mode’s own sandbox says
          otherwise), and where no sandbox can start every command asks. Trusting it lifts this.
        </p>
      </div>
      <div className="row">
        <button type="button" onClick={() => void answer(true)}>
          Trust this workspace
        </button>
        <button type="button" onClick={() => void answer(false)} ref={focusOnMount}>
          Keep asking
        </button>
      </div>
      <FormError message={error} />
    </section>
  )
}
