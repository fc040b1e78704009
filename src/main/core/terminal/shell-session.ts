import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import * as pty from 'node-pty'
import { createMarkerParser, type Marker } from './marker-parser'
import { createTextRing } from './text-ring'
import type { OutputCapture } from './output-capture'
import { foregroundGroup, killProcessTree, terminalReader } from './process-tree'
import { invocationLine, writeCommandScript, type ShellLaunch } from './shell-integration'

/**
 * One shell in one pty. Splits the stream into what the user sees (markers removed, the echo of
 * the typed invocation dropped) and what a running command captured, and ends a command only on
 * its end marker — or, if the shell itself exits, on the pty's exit.
 */
export type SessionState = 'starting' | 'idle' | 'awaiting-start' | 'running' | 'exited'

export type CommandEnd =
  { kind: 'exited'; exitCode: number; cwd: string } | { kind: 'shell-exited'; exitCode: number | null }

export interface RunningCommand {
  readonly nonce: string
  readonly done: Promise<CommandEnd>
  /** Time of the last output chunk (or the start). */
  lastOutputAt(): number
}

export interface ShellSessionOptions {
  launch: ShellLaunch
  cwd: string
  env: Record<string, string>
  cols: number
  rows: number
  scriptDir: string
  readyNonce: string
  /** Text for the terminal view: markers removed. */
  onOutput: (text: string) => void
  onExit: (exitCode: number | null) => void
  scrollbackChars?: number
}

export interface ShellSession {
  readonly pid: number
  readonly kind: ShellLaunch['kind']
  /** The pty's terminal device (`/dev/pts/N`), where the platform names one. */
  readonly tty: string | undefined
  state(): SessionState
  /** Last cwd the shell reported (from an end marker), else where it started. */
  cwd(): string
  /** True once the integration announced itself; false on timeout or exit. */
  waitReady(timeoutMs: number): Promise<boolean>
  /** Runs `command`; the terminal view shows `shown` instead when given (a sandbox-wrapped line). */
  run(command: string, cwd: string | null, capture: OutputCapture, shown?: string): Promise<RunningCommand>
  /**
   * Runs a script of Modus's own (a question to the shell) through the same integration, unseen:
   * neither it nor its output reaches the terminal view. Resolves with its output once it ends,
   * or null if the shell exits first.
   */
  probe(script: string): Promise<string | null>
  write(data: string): void
  resize(cols: number, rows: number): void
  pause(): void
  resume(): void
  /** The shell sits at its prompt (no foreground job of its own) — safe to type a command. */
  atPrompt(): Promise<boolean>
  /** Pid of the foreground job, or the shell's when it runs a builtin. */
  foregroundPid(): Promise<number>
  /** Pid blocked reading the terminal (Linux), null if none, undefined if unknowable. */
  inputReader(): Promise<number | null | undefined>
  /** Ends the shell and everything in it. */
  kill(graceMs?: number): Promise<void>
  scrollback(): string
  scrollbackSize(): number
}

interface ActiveCommand {
  nonce: string
  capture: Pick<OutputCapture, 'push'>
  /** What the view shows when it starts; null for a probe (nothing of it is shown). */
  display: string | null
  files: string[]
  lastOutputAt: number
  resolve: (end: CommandEnd) => void
}

const TERMINAL_MODES = /\x1b\[\?[\d;]*[hl]|\x1b[=>]/g

export function createShellSession(options: ShellSessionOptions): ShellSession {
  const proc = pty.spawn(options.launch.file, options.launch.args, {
    name: 'xterm-256color',
    cols: options.cols,
    rows: options.rows,
    cwd: options.cwd,
    env: { ...options.env, ...options.launch.env }
  })
  let state: SessionState = 'starting'
  let cwd = options.cwd
  let active: ActiveCommand | null = null
  let readyResolve: ((ready: boolean) => void) | null = null
  const ready = new Promise<boolean>((resolve) => (readyResolve = resolve))
  // The last characters shown in the terminal, for a tab that reconnects.
  const scroll = createTextRing(options.scrollbackChars ?? 1_000_000)

  const toView = (text: string): void => {
    scroll.push(text)
    options.onOutput(text)
  }

  const finish = (end: CommandEnd): void => {
    const command = active
    if (!command) return
    active = null
    if (end.kind === 'exited') cwd = end.cwd || cwd
    if (state !== 'exited') state = 'idle'
    void Promise.all(command.files.map((file) => rm(file, { force: true }))).catch(() => undefined)
    command.resolve(end)
  }

  const onMarker = (marker: Marker): void => {
    if (marker.kind === 'R' && marker.nonce === options.readyNonce && state === 'starting') {
      state = 'idle'
      readyResolve?.(true)
      return
    }
    if (active && marker.nonce === active.nonce) {
      if (marker.kind === 'S' && state === 'awaiting-start') {
        state = 'running'
        active.lastOutputAt = Date.now()
        if (active.display !== null) toView(active.display)
        return
      }
      if (marker.kind === 'E') {
        finish({ kind: 'exited', exitCode: marker.exitCode ?? 0, cwd: marker.cwd ?? cwd })
        return
      }
    }
    onText(marker.raw)
  }

  const onText = (text: string): void => {
    if (state === 'awaiting-start' && active) {
      // The echo of the invocation line is hidden, but the terminal modes readline switches
      // around it (bracketed paste, keypad) must reach the view, or a paste or arrow key typed
      // into the command would arrive wrapped in escape codes.
      const modes = text.match(TERMINAL_MODES)
      if (modes) toView(modes.join(''))
      return
    }
    if (state === 'running' && active) {
      active.lastOutputAt = Date.now()
      active.capture.push(text)
      if (active.display === null) return
    }
    toView(text)
  }

  const parser = createMarkerParser({ text: onText, marker: onMarker })
  proc.onData((chunk) => parser.push(chunk))
  proc.onExit(({ exitCode }) => {
    parser.flush()
    state = 'exited'
    readyResolve?.(false)
    finish({ kind: 'shell-exited', exitCode: exitCode ?? null })
    options.onExit(exitCode ?? null)
  })

  const platform = process.platform

  async function start(
    command: string,
    runCwd: string | null,
    capture: ActiveCommand['capture'],
    display: string | null
  ): Promise<RunningCommand> {
    if (state !== 'idle') throw new Error(`The shell is not ready for a command (${state}).`)
    const nonce = randomBytes(16).toString('hex')
    state = 'awaiting-start'
    let files: string[]
    try {
      files = await writeCommandScript(options.launch.kind, options.scriptDir, nonce, command, runCwd)
    } catch (error) {
      state = 'idle'
      throw error
    }
    let resolveDone!: (end: CommandEnd) => void
    const done = new Promise<CommandEnd>((resolve) => (resolveDone = resolve))
    const entry: ActiveCommand = {
      nonce,
      capture,
      display,
      files,
      lastOutputAt: Date.now(),
      resolve: resolveDone
    }
    active = entry
    if ((state as SessionState) === 'exited') finish({ kind: 'shell-exited', exitCode: null })
    else proc.write(invocationLine(options.launch.kind, nonce))
    return { nonce, done, lastOutputAt: () => entry.lastOutputAt }
  }

  return {
    pid: proc.pid,
    kind: options.launch.kind,
    tty: platform === 'win32' ? undefined : (proc as pty.IPty & { ptsName?: string }).ptsName,
    state: () => state,
    cwd: () => cwd,
    waitReady(timeoutMs) {
      return Promise.race([
        ready,
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref())
      ])
    },
    run: (command, runCwd, capture, shown = command) =>
      start(command, runCwd, capture, shown.replace(/\r?\n/g, '\r\n') + '\r\n'),
    async probe(script) {
      let output = ''
      const running = await start(script, null, { push: (text) => void (output += text) }, null)
      const end = await running.done
      return end.kind === 'exited' ? output : null
    },
    write: (data) => {
      if (state !== 'exited') proc.write(data)
    },
    resize: (cols, rows) => {
      if (state !== 'exited') proc.resize(Math.max(2, cols), Math.max(1, rows))
    },
    pause: () => proc.pause(),
    resume: () => proc.resume(),
    async atPrompt() {
      if (state !== 'idle') return false
      if (platform === 'win32') return true
      const group = await foregroundGroup(proc.pid, platform)
      return group === null || group === proc.pid
    },
    async foregroundPid() {
      const group = await foregroundGroup(proc.pid, platform)
      return group ?? proc.pid
    },
    inputReader: () => terminalReader(proc.pid, platform),
    async kill(graceMs) {
      if (state === 'exited') return
      await killProcessTree(proc.pid, { includeRoot: true, graceMs })
      if ((state as SessionState) !== 'exited') {
        try {
          proc.kill(platform === 'win32' ? undefined : 'SIGKILL')
        } catch {
          // Already gone.
        }
      }
    },
    scrollback: () => scroll.text(),
    scrollbackSize: () => scroll.size()
  }
}
