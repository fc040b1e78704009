import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { Icon } from '../../components/icons'
import type { TerminalInfo } from '../../../../shared/contract/terminal'
import { useClient } from '../../client/client-context'
import { useConnectionStore } from '../../client/connection-store'
import { commandStatus, tabLabel, tabState } from './terminal-model'
import { useTerminalStore } from './terminal-store'
import type { RegisterXterm, XtermApi } from './xterm-api'
import './terminal.css'

// xterm.js (and its CSS) load when the first terminal is shown, not with the app.
const XtermView = lazy(() => import('./XtermView'))

/**
 * The terminal panel: a tab per task terminal and per user terminal, the selected one's screen,
 * and its command's state (running time, pid, waiting for input). The user can type into any
 * live terminal, open new ones, stop a command, keep a task's server after the task, copy, clear.
 */
export function TerminalPanel(): ReactNode {
  const client = useClient()
  const generation = useConnectionStore((state) => state.generation)
  const terminals = useTerminalStore((state) => state.terminals)
  const activeId = useTerminalStore((state) => state.activeId)
  const openedIds = useTerminalStore((state) => state.openedIds)
  const [error, setError] = useState<string | null>(null)
  const apis = useRef(new Map<string, XtermApi>())
  const register = useCallback<RegisterXterm>((id, api) => {
    if (api) apis.current.set(id, api)
    else apis.current.delete(id)
  }, [])

  // The core is the source of truth: resync on mount and after every reconnect (events keep it current).
  useEffect(() => {
    void useTerminalStore.getState().load(client)
  }, [client, generation])

  const run: Run = async (work) => setError(await work())
  const createTerminal = (): Promise<void> => run(() => useTerminalStore.getState().create(client))

  const active = terminals.find((t) => t.id === activeId) ?? null
  return (
    <section className="terminal-panel" aria-label="Terminals">
      <div className="terminal-tabbar">
        <h1 className="terminal-heading">Terminals</h1>
        {/* A tablist holds tabs only: the "+ Terminal" button sits beside it. */}
        <div className="terminal-tabs" role="tablist" aria-label="Terminal tabs">
          {terminals.map((terminal) => (
            <TerminalTab key={terminal.id} terminal={terminal} selected={terminal.id === activeId} />
          ))}
        </div>
        <button type="button" className="terminal-new" onClick={() => void createTerminal()} aria-label="New terminal">
          <Icon name="plus" />
          Terminal
        </button>
      </div>
      {error && (
        <p className="terminal-error" role="alert">
          {error}
        </p>
      )}
      {active ? (
        <TerminalToolbar terminal={active} apis={apis.current} run={run} />
      ) : (
        <p className="note terminal-empty">
          No terminals yet. Commands the agent runs appear here; “+ Terminal” opens your own shell.
        </p>
      )}
      <div className="terminal-screens">
        <Suspense fallback={<p className="note">Loading terminal…</p>}>
          {openedIds.map((id) => {
            const terminal = terminals.find((t) => t.id === id)
            if (!terminal) return null
            return (
              <XtermView
                key={id}
                terminalId={id}
                active={id === activeId}
                exited={terminal.status === 'exited'}
                register={register}
              />
            )
          })}
        </Suspense>
      </div>
    </section>
  )
}

function TerminalTab(props: { terminal: TerminalInfo; selected: boolean }): ReactNode {
  const { terminal } = props
  const state = tabState(terminal)
  return (
    <button
      type="button"
      role="tab"
      aria-selected={props.selected}
      className={`terminal-tab terminal-tab-${state}`}
      title={terminal.command ? terminal.command.command : terminal.cwd}
      onClick={() => useTerminalStore.getState().select(terminal.id)}
    >
      <span className="terminal-dot" aria-hidden="true" />
      <span className="terminal-tab-label">{tabLabel(terminal)}</span>
      <span className="terminal-sr-only">{` (${state})`}</span>
    </button>
  )
}

/** Runs a terminal action and shows its error text (or clears the last one). */
type Run = (work: () => Promise<string | null>) => Promise<void>

function TerminalToolbar(props: { terminal: TerminalInfo; apis: Map<string, XtermApi>; run: Run }): ReactNode {
  const { terminal, apis, run } = props
  const client = useClient()
  const store = useTerminalStore.getState
  const now = useNow(terminal.command !== null && terminal.command.endedAt === null)
  const running = terminal.command !== null && terminal.command.endedAt === null
  const exited = terminal.status === 'exited'
  const [copied, setCopied] = useState(false)
  const id = terminal.id
  return (
    <div className="terminal-toolbar">
      <div className="terminal-status" aria-live="polite">
        {terminal.command ? (
          <>
            <code className="terminal-command">{terminal.command.command}</code>
            <span className={`terminal-state terminal-state-${terminal.command.state}`}>
              {commandStatus(terminal.command, now)}
            </span>
          </>
        ) : (
          <span className="terminal-cwd">{terminal.cwd}</span>
        )}
        {exited && <span className="terminal-state">shell ended</span>}
      </div>
      <div className="terminal-actions">
        {running && (
          <button type="button" className="danger" onClick={() => void run(() => store().stopCommand(client, id))}>
            Stop
          </button>
        )}
        {terminal.kind === 'task' && !exited && (
          <label className="terminal-keep" title="Keep this terminal (e.g. a dev server) running after its task ends">
            <input
              type="checkbox"
              checked={terminal.kept}
              onChange={(event) => void run(() => store().keep(client, id, event.target.checked))}
            />
            Keep after task
          </label>
        )}
        <button
          type="button"
          onClick={() =>
            void apis
              .get(id)
              ?.copySelection()
              .then((done) => {
                setCopied(done)
                if (done) setTimeout(() => setCopied(false), 1500)
              })
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={() => apis.get(id)?.clear()}>
          Clear
        </button>
        <button
          type="button"
          aria-label={exited ? 'Close terminal' : 'Kill terminal'}
          onClick={() => void run(() => store().kill(client, id))}
        >
          {exited ? 'Close' : 'Kill'}
        </button>
      </div>
    </div>
  )
}

/** The current time, ticking each second while `live` (running times in the status line). */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!live) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [live])
  return now
}
