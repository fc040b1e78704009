import { useWorkspaceStore } from '../../common/workspace/workspace-store'
import { FormError } from '../../components/FormError'
import { useId, useState, type ReactNode } from 'react'
import { grantsNeedTrust, TOOL_GROUPS } from '../../../../shared/modes/schema'
import { AutoApproveFields } from './AutoApproveFields'
import { BrowserRulesFields } from './BrowserRulesFields'
import { CommandRulesFields } from '../../common/modes/CommandRulesFields'
import { ExportButtons } from './ExportButtons'
import { FileRegexField } from './FileRegexField'
import { SandboxFields } from './SandboxFields'
import { checkDraft, draftFromMode, emptyDraft, slugFromName, type DraftField, type ModeDraft } from './mode-draft'
import type { ModeEntry, ModesApi, ModeScope } from './modes-api'
import { ORIGIN_LABELS, useModesStore } from './modes-store'
import { focusOnMount } from '../../components/focus-after'

interface Props {
  api: ModesApi
  /** The mode being edited; absent for a new mode. */
  entry?: ModeEntry
  /** A new mode's starting point (Duplicate). */
  template?: ModeEntry
  initialScope?: ModeScope
  /** Whether the open workspace is trusted (project modes' grants apply only then). */
  projectTrusted: boolean
}

const GROUP_LABELS: Record<(typeof TOOL_GROUPS)[number], string> = {
  read: 'Read (read, list, search files)',
  edit: 'Edit (write, diff, patch)',
  command: 'Command (terminal)',
  browser: 'Browser (drive a Chromium page)',
  mcp: 'MCP tools',
  modes: 'Modes (switch, subtasks)'
}

export function ModeEditor({ api, entry, template, initialScope, projectTrusted }: Props): ReactNode {
  const listing = useModesStore((state) => state.listing)
  const isNew = !entry
  const [draft, setDraft] = useState<ModeDraft>(() =>
    entry ? draftFromMode(entry) : template ? duplicateDraft(template, listing?.modes ?? []) : emptyDraft()
  )
  const [slugTouched, setSlugTouched] = useState(!isNew || Boolean(template))
  const [scope, setScope] = useState<ModeScope>(
    entry && entry.origin !== 'builtin' ? entry.origin : (initialScope ?? (listing?.hasProject ? 'project' : 'global'))
  )
  const [submitted, setSubmitted] = useState(false)
  const [status, setStatus] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const ids = useId()

  const takenSlugs = (listing?.modes ?? [])
    .filter((mode) => isNew && mode.origin !== 'builtin')
    .map((mode) => mode.slug)
  const check = checkDraft(draft, takenSlugs)
  const allErrors = check.ok ? {} : check.errors
  // Text fields show their errors once the user has tried to save or touched them; patterns and numbers at once.
  const shown = (field: DraftField): string | undefined =>
    submitted || ['fileRegex', 'followupTimeoutSeconds', 'maxRequests', 'maxCostUsd'].includes(field)
      ? allErrors[field]
      : undefined
  const update = (patch: Partial<ModeDraft>) => {
    setStatus(null)
    setDraft((current) => ({ ...current, ...patch }))
  }

  const run = async (work: () => Promise<string>) => {
    setFailure(null)
    try {
      setStatus(await work())
    } catch (error) {
      setFailure((error as Error).message)
    }
  }

  const save = () => {
    setSubmitted(true)
    if (!check.ok) return
    void run(async () => {
      const renamed = entry && entry.origin !== 'builtin' ? entry.slug : undefined
      useModesStore.getState().setListing(await api.save(check.mode, scope, renamed))
      useModesStore.getState().select({ kind: 'mode', slug: check.mode.slug })
      return `Saved to ${scope === 'project' ? 'this project' : 'your global modes'}.`
    })
  }

  const removeOrReset = () => {
    setConfirming(false)
    if (!entry || entry.origin === 'builtin') return
    const origin = entry.origin
    void run(async () => {
      const after = entry.overridesBuiltIn
        ? await api.resetBuiltIn(entry.slug, origin)
        : await api.remove(entry.slug, origin)
      useModesStore.getState().setListing(after)
      const still = after.modes.find((mode) => mode.slug === entry.slug)
      useModesStore.getState().select(still ? { kind: 'mode', slug: entry.slug } : null)
      return entry.overridesBuiltIn ? 'Reset to the built-in mode.' : 'Mode deleted.'
    })
  }

  const field = (name: 'name' | 'slug' | 'description', label: string, hint?: string) => (
    <div className="field">
      <label htmlFor={`${ids}-${name}`}>{label}</label>
      <input
        id={`${ids}-${name}`}
        value={draft[name]}
        placeholder={hint}
        disabled={name === 'slug' && entry?.origin === 'builtin'}
        aria-invalid={Boolean(shown(name))}
        aria-describedby={shown(name) ? `${ids}-${name}-error` : undefined}
        onChange={(event) => {
          const value = event.target.value
          if (name === 'slug') setSlugTouched(true)
          update(name === 'name' && !slugTouched ? { name: value, slug: slugFromName(value) } : { [name]: value })
        }}
      />
      {shown(name) && (
        <p className="field-error" id={`${ids}-${name}-error`}>
          {shown(name)}
        </p>
      )}
    </div>
  )
  const area = (name: 'roleDefinition' | 'whenToUse' | 'customInstructions', label: string, rows: number) => (
    <div className="field">
      <label htmlFor={`${ids}-${name}`}>{label}</label>
      <textarea
        id={`${ids}-${name}`}
        rows={rows}
        value={draft[name]}
        aria-invalid={Boolean(shown(name))}
        aria-describedby={shown(name) ? `${ids}-${name}-error` : undefined}
        onChange={(event) => update({ [name]: event.target.value })}
      />
      {shown(name) && (
        <p className="field-error" id={`${ids}-${name}-error`}>
          {shown(name)}
        </p>
      )}
    </div>
  )

  const untrusted = entry !== undefined && grantsNeedTrust(entry) && !projectTrusted
  return (
    <form
      className="mode-editor"
      aria-label={entry ? `Edit mode ${entry.name}` : 'New mode'}
      onSubmit={(event) => {
        event.preventDefault()
        save()
      }}
    >
      <header className="mode-editor-header">
        <h2>{entry ? entry.name : 'New mode'}</h2>
        {entry && <span className="pill">{ORIGIN_LABELS[entry.origin]}</span>}
        {entry?.overridesBuiltIn && <span className="pill">overrides built-in</span>}
        {entry?.savedByUser && (
          <span
            className="pill"
            title="You saved this mode in Modus: its toggles are your own grant. A change to it by anyone else makes it the project's again."
          >
            saved by you
          </span>
        )}
        {untrusted && (
          <span
            className="pill warn"
            title="Its auto-approve toggles and allow rules take effect once you trust this workspace."
          >
            not trusted
          </span>
        )}
      </header>
      {untrusted && (
        <div className="note warn-text untrusted-banner">
          <p>
            This mode comes from the project’s files. Until you trust this workspace, its auto-approve toggles and allow
            rules are off; its deny and ask rules apply.
          </p>
          <button type="button" onClick={() => useWorkspaceStore.getState().requestTrustPrompt(true)}>
            Review trust for this workspace…
          </button>
        </div>
      )}
      {entry?.origin === 'builtin' && (
        <p className="note">Built-in mode. Saving stores an override with the same slug; you can reset it later.</p>
      )}
      {entry?.origin === 'builtin' && entry.additions && <BuiltInAdditionsList additions={entry.additions} />}
      <div className="two-columns">
        {field('name', 'Name')}
        {field('slug', 'Slug', 'letters, digits and dashes')}
      </div>
      {field('description', 'Short description (optional)')}
      {area('roleDefinition', 'Role definition', 4)}
      {area('whenToUse', 'When to use (helps the Orchestrator pick this mode)', 2)}
      {area('customInstructions', 'Custom instructions', 4)}

      <fieldset className="groups">
        <legend>Tool groups</legend>
        {TOOL_GROUPS.map((group) => (
          <label key={group} className="inline">
            <input
              type="checkbox"
              checked={draft.groups[group]}
              onChange={(event) => update({ groups: { ...draft.groups, [group]: event.target.checked } })}
            />
            {GROUP_LABELS[group]}
          </label>
        ))}
        {shown('groups') && <p className="field-error">{shown('groups')}</p>}
        <FileRegexField
          api={api}
          value={draft.fileRegex}
          description={draft.fileRegexDescription}
          disabled={!draft.groups.edit}
          canTest={listing?.hasProject ?? false}
          error={allErrors.fileRegex}
          onChange={(fileRegex) => update({ fileRegex })}
          onDescriptionChange={(fileRegexDescription) => update({ fileRegexDescription })}
        />
        <div className="field">
          <label htmlFor={`${ids}-mcpServers`}>
            MCP servers this mode may use (blank: all; none; or names, comma separated)
          </label>
          <input
            id={`${ids}-mcpServers`}
            value={draft.mcpServers}
            disabled={!draft.groups.mcp}
            placeholder="all"
            aria-invalid={Boolean(shown('mcpServers'))}
            onChange={(event) => update({ mcpServers: event.target.value })}
          />
          {shown('mcpServers') && <p className="field-error">{shown('mcpServers')}</p>}
        </div>
      </fieldset>

      <CommandRulesFields
        rules={draft.rules}
        error={shown('rules')}
        onChange={(list, value) => update({ rules: { ...draft.rules, [list]: value } })}
      />
      <BrowserRulesFields
        allow={draft.browserAllow}
        disabled={!draft.groups.browser}
        error={shown('browserRules')}
        onChange={(browserAllow) => update({ browserAllow })}
      />
      <AutoApproveFields
        draft={draft}
        errors={allErrors}
        onToggle={(key, on) => update({ toggles: { ...draft.toggles, [key]: on } })}
        onNumber={(key, value) => update({ [key]: value })}
      />
      <SandboxFields
        sandbox={draft.sandbox}
        errors={{
          sandbox: shown('sandbox'),
          sandboxRoots: shown('sandboxRoots'),
          sandboxDomains: shown('sandboxDomains'),
          sandboxOutside: shown('sandboxOutside')
        }}
        status={api.sandboxStatus}
        onChange={(sandbox) => update({ sandbox })}
      />

      {(isNew || entry?.origin === 'builtin') && (
        <div className="field">
          <label htmlFor={`${ids}-scope`}>Save to</label>
          <select id={`${ids}-scope`} value={scope} onChange={(event) => setScope(event.target.value as ModeScope)}>
            <option value="global">Global (all projects)</option>
            <option value="project" disabled={!listing?.hasProject}>
              This project (.modus/modes.yaml)
            </option>
          </select>
        </div>
      )}

      {submitted && allErrors.form && <p className="field-error">{allErrors.form}</p>}
      <div className="form-actions sticky-actions">
        <button type="submit">{entry?.origin === 'builtin' ? 'Save override' : 'Save mode'}</button>
        {entry && (
          <button type="button" onClick={() => useModesStore.getState().select({ kind: 'new', template: entry })}>
            Duplicate
          </button>
        )}
        {entry && entry.origin !== 'builtin' && !confirming && (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            {entry.overridesBuiltIn ? 'Reset to built-in' : 'Delete'}
          </button>
        )}
        {entry && <ExportButtons api={api} slug={entry.slug} onError={setFailure} />}
        <span className="note" role="status">
          {status}
        </span>
      </div>
      {confirming && entry && (
        <div
          className="row confirm"
          role="alertdialog"
          aria-label={entry.overridesBuiltIn ? 'Reset to built-in?' : `Delete mode ${entry.name}?`}
        >
          <span>
            {entry.overridesBuiltIn
              ? `Discard your changes to ${entry.name} and use the built-in mode again?`
              : `Delete the mode ${entry.name}?`}
          </span>
          <button type="button" className="danger irreversible" ref={focusOnMount} onClick={removeOrReset}>
            {entry.overridesBuiltIn ? 'Reset' : 'Delete'}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </div>
      )}
      <FormError message={failure} />
    </form>
  )
}

/** A copy with a free slug: `<slug>-copy`, `<slug>-copy-2`, … */
function duplicateDraft(template: ModeEntry, modes: readonly ModeEntry[]): ModeDraft {
  const taken = new Set(modes.map((mode) => mode.slug))
  let slug = `${template.slug}-copy`
  for (let n = 2; taken.has(slug); n++) slug = `${template.slug}-copy-${n}`
  return { ...draftFromMode(template), slug, name: `${template.name} (copy)` }
}

/** What the user added to a built-in ("always allow"), shown apart from the built-in's own rules. */
function BuiltInAdditionsList({ additions }: { additions: NonNullable<ModeEntry['additions']> }): ReactNode {
  const groups: Array<[string, string[] | undefined]> = [
    ['Commands you allowed', additions.commandAllow],
    ['Domains you allowed for sandboxed commands', additions.sandboxDomains],
    ['Pages you allowed', additions.browserAllow]
  ]
  return (
    <section className="builtin-additions" aria-label="Your additions">
      <h3>Your additions</h3>
      <p className="note">
        Kept apart from the built-in, so its updates keep reaching you. Reset to built-in drops them.
      </p>
      {groups.map(([label, items]) =>
        items?.length ? (
          <div key={label}>
            <p className="note">{label}</p>
            <ul>
              {items.map((item) => (
                <li key={item}>
                  <code>{item}</code>
                </li>
              ))}
            </ul>
          </div>
        ) : null
      )}
    </section>
  )
}
