import { useEffect, useId, useState, type ReactNode } from 'react'
import { SANDBOX_NETWORK_POLICIES, type SandboxNetworkPolicy } from '../../../../shared/modes/schema'
import type { SandboxStatus } from '../../../../shared/sandbox/status'
import { CREDENTIAL_STORES, type CredentialStoreId } from '../../../../shared/sandbox/credentials'
import { FieldError } from '../../components/FieldError'
import type { DraftErrors, ModeDraft } from './mode-draft'

/** The sandbox's errors: each list's under its own box, the rest under the group. */
export type SandboxErrors = Pick<DraftErrors, 'sandbox' | 'sandboxRoots' | 'sandboxDomains' | 'sandboxOutside'>

interface Props {
  sandbox: ModeDraft['sandbox']
  errors: SandboxErrors
  /** Asks the core whether the sandbox can start here; absent → nothing is shown. */
  status?: () => Promise<SandboxStatus>
  onChange(sandbox: ModeDraft['sandbox']): void
}

const NETWORK_LABELS: Record<SandboxNetworkPolicy, string> = {
  none: 'No network',
  'allow-list': 'Only the domains listed below',
  ask: 'Listed domains; ask in the approval queue for any other'
}

const ON_MEANS =
  'On: its commands write only to the writable roots, .git/ and the other protected paths stay read-only, credential stores are unreadable, and each new host (localhost too) follows the network setting.'
const OFF_MEANS =
  'Off: its commands run with your full user rights — they can write anywhere you can, read your SSH keys and tokens, and reach any host. In an untrusted folder they still run only in a sandbox, or ask.'
const UNTIL_THEN_RULES =
  'Until then this mode’s commands run unsandboxed as its rules say; in a folder you have not trusted, every command asks.'
const UNTIL_THEN_ASK = 'Until then every command of this mode asks.'

const toggled = (list: readonly CredentialStoreId[], id: CredentialStoreId, on: boolean): CredentialStoreId[] =>
  on ? [...list.filter((item) => item !== id), id] : list.filter((item) => item !== id)

/** The mode's OS sandbox for commands: on/off (and what that means), writable roots, network policy and domains, credential stores given back. */
export function SandboxFields({ sandbox, errors, status, onChange }: Props): ReactNode {
  const ids = useId()
  const [found, setFound] = useState<SandboxStatus | null>(null)
  useEffect(() => {
    if (!sandbox.enabled || !status) return
    let live = true
    status()
      .then((result) => live && setFound(result))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [sandbox.enabled, status])
  const set = (change: Partial<ModeDraft['sandbox']>) => onChange({ ...sandbox, ...change })
  return (
    <fieldset className="sandbox">
      <legend>Sandbox for commands</legend>
      <label className="toggle">
        <input
          type="checkbox"
          role="switch"
          checked={sandbox.enabled}
          aria-checked={sandbox.enabled}
          onChange={(event) => set({ enabled: event.target.checked })}
        />
        <span>Run this mode’s commands in an OS sandbox (bubblewrap on Linux, Seatbelt on macOS)</span>
      </label>
      <p className="note">{sandbox.enabled ? ON_MEANS : OFF_MEANS}</p>
      {sandbox.enabled && found && (
        <p className={found.available ? 'note' : 'note warn-text'} role="status">
          {found.available
            ? 'The sandbox is available here.'
            : `The sandbox cannot start here: ${found.reason}. Fix: ${found.fix}. ${sandbox.whereAvailable ? UNTIL_THEN_RULES : UNTIL_THEN_ASK}`}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${ids}-roots`}>
          Writable roots (one per line; blank: the workspace and the system temp dir)
        </label>
        <textarea
          id={`${ids}-roots`}
          aria-invalid={Boolean(errors.sandboxRoots)}
          aria-describedby={errors.sandboxRoots ? `${ids}-roots-error` : undefined}
          rows={2}
          value={sandbox.writableRoots}
          disabled={!sandbox.enabled}
          placeholder={'.\n/tmp'}
          onChange={(event) => set({ writableRoots: event.target.value })}
        />
        <FieldError id={`${ids}-roots-error`} message={errors.sandboxRoots} />
        <p className="note">
          .git/, .modus/ and .roomodes stay read-only inside the sandbox, and so do .modusignore, .rooignore and
          .vscode/ where they exist.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-network`}>Network</label>
        <select
          id={`${ids}-network`}
          value={sandbox.network}
          disabled={!sandbox.enabled}
          onChange={(event) => set({ network: event.target.value as SandboxNetworkPolicy })}
        >
          {SANDBOX_NETWORK_POLICIES.map((policy) => (
            <option key={policy} value={policy}>
              {NETWORK_LABELS[policy]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-domains`}>
          Allowed domains (one per line: registry.npmjs.org, *.example.com, host:port)
        </label>
        <textarea
          id={`${ids}-domains`}
          aria-invalid={Boolean(errors.sandboxDomains)}
          aria-describedby={errors.sandboxDomains ? `${ids}-domains-error` : undefined}
          rows={2}
          value={sandbox.allowedDomains}
          disabled={!sandbox.enabled || sandbox.network === 'none'}
          onChange={(event) => set({ allowedDomains: event.target.value })}
        />
        <FieldError id={`${ids}-domains-error`} message={errors.sandboxDomains} />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-outside`}>
          Commands that run outside the sandbox (one rule per line, e.g. docker *; they always ask first)
        </label>
        <textarea
          id={`${ids}-outside`}
          aria-invalid={Boolean(errors.sandboxOutside)}
          aria-describedby={errors.sandboxOutside ? `${ids}-outside-error` : undefined}
          rows={2}
          value={sandbox.unsandboxedCommands}
          disabled={!sandbox.enabled}
          placeholder="docker *"
          onChange={(event) => set({ unsandboxedCommands: event.target.value })}
        />
        <FieldError id={`${ids}-outside-error`} message={errors.sandboxOutside} />
      </div>
      <fieldset className="credentials" disabled={!sandbox.enabled}>
        <legend>Credential stores its commands may read (the others stay unreadable)</legend>
        {CREDENTIAL_STORES.map((store) => (
          <label key={store.id} className="toggle">
            <input
              type="checkbox"
              checked={sandbox.readableCredentials.includes(store.id)}
              onChange={(event) =>
                set({ readableCredentials: toggled(sandbox.readableCredentials, store.id, event.target.checked) })
              }
            />
            <span>
              {store.label} ({store.paths.slice(0, 2).join(', ')}
              {store.paths.length > 2 ? ' …' : ''})
            </span>
          </label>
        ))}
        <p className="note">Modus’s own data folder (with its secrets file) is never readable.</p>
      </fieldset>
      <FieldError id={`${ids}-error`} message={errors.sandbox} />
    </fieldset>
  )
}
