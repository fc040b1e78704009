import type { EventPayload } from '../../../shared/contract'
import type { TerminalCommandInfo, TerminalInfo } from '../../../shared/contract/terminal'
import type { InputWaitState } from './command-monitor'
import { createDataCoalescer } from './data-coalescer'
import type { OutputCapture, OutputPreview } from './output-capture'
import type { CommandEnd, RunningCommand, ShellSession } from './shell-session'

/** Matches the core's `EventBus.emit`, narrowed to this domain's events. */
export type TerminalEventSink = <E extends 'terminal:data' | 'terminal:changed'>(
  name: E,
  payload: EventPayload<E>
) => void

/** A command started in a terminal, from its start until its output is saved. */
export interface CommandRecord {
  info: TerminalCommandInfo
  capture: OutputCapture
  running: RunningCommand
  /** Resolves after the capture is flushed and the info is final. */
  settled: Promise<{ end: CommandEnd; preview: OutputPreview; sandboxBlocked: string | null }>
  stopReason: 'cancelled' | 'hard-limit' | 'killed' | null
  inputWait: InputWaitState
  lastUserInputAt: number
}

export interface TerminalRecord {
  id: string
  kind: 'task' | 'user'
  taskId: string | null
  title: string
  shell: string
  session: ShellSession
  kept: boolean
  exitCode: number | null
  exited: boolean
  /** Taken by an execute call that is starting a command in it. */
  reserved: boolean
  command: CommandRecord | null
}

export type SessionStarter = (hooks: {
  onOutput(text: string): void
  onExit(code: number | null): void
}) => ShellSession

/** Every live terminal (task and user), their list as the UI sees it, and its change events. */
export interface TerminalRegistry {
  /** Starts the terminal's shell with output and exit wired to the events, and lists it. */
  add(record: Omit<TerminalRecord, 'session'>, start: SessionStarter): TerminalRecord
  find(terminalId: string): TerminalRecord
  all(): TerminalRecord[]
  nextId(kind: 'task' | 'user'): string
  info(terminal: TerminalRecord): TerminalInfo
  list(): TerminalInfo[]
  /** Announces the list again, once per tick however many changes there were. */
  changed(): void
  kill(terminal: TerminalRecord, remove: boolean): Promise<void>
  /** Keeps the list short: exited task terminals beyond the last three are dropped. */
  pruneExited(taskId: string): void
  /** Delivers the terminal's pending output now. */
  flush(terminalId: string): void
  /** Commands of a task still running. */
  runningCommands(taskId: string): TerminalCommandInfo[]
  readonly disposed: boolean
  dispose(): Promise<void>
}

export interface TerminalRegistryDeps {
  emit: TerminalEventSink
  killGraceMs: number
  coalesceMs: number
}

function statusOf(t: TerminalRecord): TerminalInfo['status'] {
  if (t.exited) return 'exited'
  if (t.command && !t.command.info.endedAt) return 'busy'
  return t.session.state() === 'starting' && t.kind === 'task' ? 'starting' : 'idle'
}

export function createTerminalRegistry(deps: TerminalRegistryDeps): TerminalRegistry {
  const terminals = new Map<string, TerminalRecord>()
  let counter = 0
  let changeQueued = false
  let disposed = false
  const coalescer = createDataCoalescer((terminalId, data) => deps.emit('terminal:data', { terminalId, data }), {
    intervalMs: deps.coalesceMs
  })

  const info = (t: TerminalRecord): TerminalInfo => ({
    id: t.id,
    kind: t.kind,
    taskId: t.taskId,
    title: t.title,
    shell: t.shell,
    pid: t.exited ? null : t.session.pid,
    cwd: t.session.cwd(),
    status: statusOf(t),
    exitCode: t.exitCode,
    kept: t.kept,
    command: t.command ? { ...t.command.info } : null
  })
  const list = (): TerminalInfo[] => [...terminals.values()].map(info)

  const changed = (): void => {
    if (changeQueued || disposed) return
    changeQueued = true
    setImmediate(() => {
      changeQueued = false
      if (!disposed) deps.emit('terminal:changed', list())
    })
  }

  async function kill(terminal: TerminalRecord, remove: boolean): Promise<void> {
    if (!terminal.exited) await terminal.session.kill(deps.killGraceMs)
    if (remove) {
      terminals.delete(terminal.id)
      changed()
    }
  }

  return {
    add(record, start) {
      const full = record as TerminalRecord
      full.session = start({
        onOutput: (text) => coalescer.push(full.id, text),
        onExit: (code) => {
          coalescer.flush(full.id)
          full.exited = true
          full.exitCode = code
          changed()
        }
      })
      terminals.set(full.id, full)
      changed()
      return full
    },
    find(terminalId) {
      const terminal = terminals.get(terminalId)
      if (!terminal) throw new Error(`No terminal ${terminalId}.`)
      return terminal
    },
    all: () => [...terminals.values()],
    nextId: (kind) => `${kind}-${++counter}`,
    info,
    list,
    changed,
    kill,
    pruneExited(taskId) {
      const exited = [...terminals.values()].filter((t) => t.taskId === taskId && t.exited)
      for (const terminal of exited.slice(0, Math.max(0, exited.length - 3))) terminals.delete(terminal.id)
    },
    flush: (terminalId) => coalescer.flush(terminalId),
    runningCommands: (taskId) =>
      [...terminals.values()]
        .filter((t) => t.taskId === taskId && t.command && t.command.info.endedAt === null)
        .map((t) => ({ ...t.command!.info })),
    get disposed() {
      return disposed
    },
    async dispose() {
      await Promise.all([...terminals.values()].map((terminal) => kill(terminal, false)))
      disposed = true
      coalescer.dispose()
      terminals.clear()
    }
  }
}
