import { useEffect, useState, type ReactNode } from 'react'
import { Icon } from '../../components/icons'
import { counted } from '../../common/plural'
import type { McpServerView } from '../../../../shared/contract/mcp'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { McpServerForm } from './McpServerForm'
import { useMcpStore } from './mcp-store'
import './mcp.css'

const STATUS_LABEL: Record<McpServerView['status'], string> = {
  disabled: 'disabled',
  untrusted: 'not started (workspace not trusted)',
  stopped: 'stopped',
  starting: 'starting…',
  connected: 'connected',
  failed: 'failed'
}

/** The MCP servers of this workspace: status, tools, resources, logs, and the config they come from. */
export function McpView(): ReactNode {
  const client = useClient()
  const snapshot = useMcpStore((state) => state.snapshot)
  const editing = useMcpStore((state) => state.editing)
  const [error, setError] = useState<string | null>(null)

  // Loaded on open; mcp:changed events keep it current (event-router).
  useEffect(() => {
    void useMcpStore.getState().load(client)
  }, [client])

  const store = useMcpStore.getState
  const actions: ServerActions = {
    restart: async (server) => setError(await store().restart(client, server)),
    remove: async (server, scope) => setError(await store().remove(client, server, scope)),
    setTool: async (server, tool, change) => setError(await store().setTool(client, server, tool, change))
  }

  if (!snapshot) return <section className="mcp-view" aria-label="MCP servers" aria-busy="true" />
  const edited = editing ? snapshot.servers.find((server) => server.name === editing) : undefined
  return (
    <section className="mcp-view" aria-label="MCP servers">
      <div className="mcp-head">
        <h1>MCP servers</h1>
        <button type="button" onClick={() => useMcpStore.getState().edit('')}>
          <Icon name="plus" />
          Add server
        </button>
      </div>
      <p className="note">
        Global: <code>{snapshot.files.global}</code>
        {snapshot.files.project && (
          <>
            {' '}
            · project: <code>{snapshot.files.project}</code> (and Roo’s <code>.roo/mcp.json</code>)
          </>
        )}
      </p>
      {snapshot.problems.length > 0 && (
        <ul className="mcp-problems" role="alert" aria-label="Config problems">
          {snapshot.problems.map((problem) => (
            <li key={`${problem.file}:${problem.line}:${problem.message}`}>
              <code>
                {problem.file}
                {problem.line ? `:${problem.line}` : ''}
              </code>{' '}
              {problem.message}
            </li>
          ))}
        </ul>
      )}
      {editing !== null && <McpServerForm key={editing} server={edited} hasProject={snapshot.files.project !== null} />}
      <FormError message={error} />
      {snapshot.servers.length === 0 ? (
        <p>
          No MCP servers yet: add one, or put Roo’s <code>mcp.json</code> in place.
        </p>
      ) : (
        snapshot.servers.map((server) => (
          <ServerCard key={`${server.scope}:${server.name}`} server={server} actions={actions} />
        ))
      )}
    </section>
  )
}

interface ServerActions {
  restart(server: string): Promise<void>
  remove(server: string, scope: McpServerView['scope']): Promise<void>
  setTool(server: string, tool: string, change: { enabled?: boolean; alwaysAllow?: boolean }): Promise<void>
}

function ServerCard({ server, actions }: { server: McpServerView; actions: ServerActions }): ReactNode {
  const running = server.status !== 'untrusted'
  return (
    <article className={`mcp-server mcp-${server.status}`} aria-label={`MCP server ${server.name}`}>
      <header className="mcp-server-head">
        <strong>{server.name}</strong>
        <span className="mcp-scope">{server.scope}</span>
        <span className={`mcp-status status-${server.status}`} role="status">
          {STATUS_LABEL[server.status]}
        </span>
        <span className="mcp-actions">
          {running && (
            <button type="button" onClick={() => void actions.restart(server.name)}>
              Restart
            </button>
          )}
          <button type="button" onClick={() => useMcpStore.getState().edit(server.name)}>
            Edit
          </button>
          <button type="button" className="danger" onClick={() => void actions.remove(server.name, server.scope)}>
            Remove
          </button>
        </span>
      </header>
      <p className="mcp-target">
        <code>{server.target}</code> · {server.transport}
      </p>
      {server.error && <p className="mcp-error">{server.error}</p>}
      {server.stderr && server.status === 'failed' && (
        <pre className="mcp-stderr" aria-label="stderr">
          {server.stderr}
        </pre>
      )}
      {server.tools.length > 0 && (
        <table className="mcp-tools" aria-label={`Tools of ${server.name}`}>
          <thead>
            <tr>
              <th>Tool</th>
              <th>Offered to the model</th>
              <th>Always allow</th>
            </tr>
          </thead>
          <tbody>
            {server.tools.map((tool) => (
              <tr key={tool.name}>
                <td title={tool.description}>
                  <code>{tool.name}</code>
                  <span className="note"> {tool.description?.split('\n', 1)[0]}</span>
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Offer ${tool.name}`}
                    checked={tool.enabled}
                    onChange={(e) => void actions.setTool(server.name, tool.name, { enabled: e.target.checked })}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Always allow ${tool.name}`}
                    checked={tool.alwaysAllow}
                    onChange={(e) => void actions.setTool(server.name, tool.name, { alwaysAllow: e.target.checked })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {server.resources.length > 0 && (
        <details>
          <summary>{counted(server.resources.length, 'resource')}</summary>
          <ul>
            {server.resources.map((resource) => (
              <li key={resource.uri}>
                <code>{resource.uri}</code> {resource.name}
              </li>
            ))}
          </ul>
        </details>
      )}
      {server.logs.length > 0 && (
        <details>
          <summary>Log</summary>
          <pre className="mcp-log">{server.logs.join('\n')}</pre>
        </details>
      )}
    </article>
  )
}
