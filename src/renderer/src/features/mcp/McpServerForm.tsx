import { useState, type ReactNode } from 'react'
import type { McpServerView } from '../../../../shared/contract/mcp'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { draftFromEntry, emptyDraft, entryFromDraft, type McpServerDraft } from './mcp-form-model'
import { useMcpStore } from './mcp-store'

/** Add or edit a server (a program over stdio, or a URL); saving writes the scope's config file. */
export function McpServerForm({ server, hasProject }: { server?: McpServerView; hasProject: boolean }): ReactNode {
  const client = useClient()
  const [draft, setDraft] = useState<McpServerDraft>(() =>
    server ? draftFromEntry(server.name, server.scope, server.entry) : emptyDraft('global')
  )
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const set = <K extends keyof McpServerDraft>(key: K, value: McpServerDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }))

  const save = async (): Promise<void> => {
    const built = entryFromDraft(draft, server?.entry)
    if (!built.ok) return setError(built.error)
    setSaving(true)
    const problem = await useMcpStore.getState().save(client, {
      scope: draft.scope,
      name: draft.name.trim(),
      previousName: server?.name,
      entry: built.entry
    })
    setSaving(false)
    if (problem) return setError(problem)
    useMcpStore.getState().edit(null)
  }

  return (
    <form
      className="mcp-form"
      aria-label={server ? `Edit MCP server ${server.name}` : 'Add an MCP server'}
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <h2>{server ? `Edit ${server.name}` : 'Add a server'}</h2>
      <label>
        Name <input value={draft.name} onChange={(e) => set('name', e.target.value)} required />
      </label>
      <fieldset disabled={Boolean(server)}>
        <legend>Saved in</legend>
        <label>
          <input type="radio" name="scope" checked={draft.scope === 'global'} onChange={() => set('scope', 'global')} />{' '}
          all workspaces (global mcp.json)
        </label>
        <label>
          <input
            type="radio"
            name="scope"
            checked={draft.scope === 'project'}
            disabled={!hasProject}
            onChange={() => set('scope', 'project')}
          />{' '}
          this project (.modus/mcp.json)
        </label>
      </fieldset>
      <fieldset>
        <legend>Kind</legend>
        <label>
          <input type="radio" name="kind" checked={draft.kind === 'stdio'} onChange={() => set('kind', 'stdio')} />{' '}
          program (stdio)
        </label>
        <label>
          <input type="radio" name="kind" checked={draft.kind === 'url'} onChange={() => set('kind', 'url')} /> URL
          (Streamable HTTP or SSE)
        </label>
      </fieldset>
      {draft.kind === 'stdio' ? (
        <>
          <label>
            Command <input value={draft.command} onChange={(e) => set('command', e.target.value)} placeholder="npx" />
          </label>
          <label>
            Arguments, one per line{' '}
            <textarea rows={3} value={draft.args} onChange={(e) => set('args', e.target.value)} />
          </label>
          <label>
            <span>
              Environment, KEY=value per line (<code>{'${env:VAR}'}</code> reads yours)
            </span>
            <textarea rows={2} value={draft.env} onChange={(e) => set('env', e.target.value)} />
          </label>
          <label>
            Working folder (default: the workspace){' '}
            <input value={draft.cwd} onChange={(e) => set('cwd', e.target.value)} />
          </label>
        </>
      ) : (
        <>
          <label>
            URL{' '}
            <input
              value={draft.url}
              onChange={(e) => set('url', e.target.value)}
              placeholder="https://example.com/mcp"
            />
          </label>
          <label>
            Transport{' '}
            <select value={draft.urlType} onChange={(e) => set('urlType', e.target.value as McpServerDraft['urlType'])}>
              <option value="auto">Streamable HTTP, else legacy SSE</option>
              <option value="streamable-http">Streamable HTTP</option>
              <option value="sse">legacy SSE</option>
            </select>
          </label>
          <label>
            Headers, Name: value per line{' '}
            <textarea rows={2} value={draft.headers} onChange={(e) => set('headers', e.target.value)} />
          </label>
        </>
      )}
      <label>
        Request timeout in seconds (default 60){' '}
        <input inputMode="numeric" value={draft.timeout} onChange={(e) => set('timeout', e.target.value)} />
      </label>
      <label>
        <input type="checkbox" checked={draft.disabled} onChange={(e) => set('disabled', e.target.checked)} /> disabled
      </label>
      <div className="row">
        <button type="submit" disabled={saving}>
          Save
        </button>
        <button type="button" onClick={() => useMcpStore.getState().edit(null)}>
          Cancel
        </button>
      </div>
      <FormError message={error} />
    </form>
  )
}
