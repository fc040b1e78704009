import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, realpath, rm, stat } from 'node:fs/promises'
import { constants as osConstants, homedir } from 'node:os'
import { join } from 'node:path'
import type { EventPayload } from '../../../shared/contract'
import type { TerminalCommandInfo, TerminalInfo } from '../../../shared/contract/terminal'
import { startCommandMonitor, type InputWaitState } from './command-monitor'
import { createDataCoalescer } from './data-coalescer'
import { memoizeEnv, resolveLoginShellEnv, type ResolveEnv } from './login-env'
import { createOutputCapture, type OutputCapture, type OutputPreview } from './output-capture'
import { readOutputFile } from './output-reader'
import { ARTIFACT_ID, commandOutputDir, resolveCommandCwd } from './paths'
import { chooseShell, prepareShellLaunch, type ShellChoice } from './shell-integration'
import { createShellSession, type CommandEnd, type RunningCommand, type ShellSession } from './shell-session'
import type { CommandOutcome, CommandRunRequest, CommandRunResult, TaskTerminal, TerminalService } from './types'

/** Matches the core's `EventBus.emit`, narrowed to this domain's events. */
export type TerminalEventSink = <E extends 'terminal:data' | 'terminal:changed'>(name: E, payload: EventPayload<E>) => void

export interface TerminalServiceDeps {
  /** App data dir: saved outputs go to `tasks/<taskId>/command-output/`, scripts to `terminal/`. */
  dataDir: string
  emit: TerminalEventSink
  /** The login shell's environment, resolved once (default: `$SHELL -ilc env`, 10 s timeout). */
  resolveEnv?: ResolveEnv
  /** Shell to use instead of $SHELL (path). */
  shell?: string
  /** Source the user's rc files in task shells (default true). */
  loadUserRc?: boolean
  /** Preview size for the model, in characters (default 10,000: 30 % head, 70 % tail). */
  previewChars?: number
  /** Model timeout when the call gives none (default 120 s), then the command goes to the background. */
  defaultTimeoutMs?: number
  /** The user's hard limit; past it a command is killed. 0/undefined = none. Read per command. */
  hardLimitMs?: () => number | undefined
  /** Silence before checking whether a command waits for input (default 1.5 s). */
  inputQuietMs?: number
  /** How long a detected input wait lasts before the model's call returns (default 8 s). */
  inputWaitReturnMs?: number
  /** Silence that counts as a possible input wait where tty reads cannot be seen (default 20 s). */
  inferredInputQuietMs?: number
  /** Time for the shell's rc files to load (default 10 s). */
  readyTimeoutMs?: number
  killGraceMs?: number
  maxTerminalsPerTask?: number
  maxArtifactBytes?: number
  coalesceMs?: number
  cols?: number
  rows?: number
}

interface CommandRecord {
  info: TerminalCommandInfo
  capture: OutputCapture
  running: RunningCommand
  /** Resolves after the capture is flushed and the info is final. */
  settled: Promise<{ end: CommandEnd; preview: OutputPreview }>
  stopReason: 'cancelled' | 'hard-limit' | 'killed' | null
  inputWait: InputWaitState
  lastUserInputAt: number
}

interface TerminalRecord {
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

const signalName = (code: number | null): string | null => {
  if (code === null || code <= 128 || code > 128 + 64) return null
  const entry = Object.entries(osConstants.signals).find(([, n]) => n === code - 128)
  return entry ? entry[0] : null
}

export function createTerminalService(deps: TerminalServiceDeps): TerminalService {
  const platform = process.platform
  const resolveEnv = memoizeEnv(deps.resolveEnv ?? (() => resolveLoginShellEnv()))
  const previewChars = deps.previewChars ?? 10_000
  const cols = deps.cols ?? 120
  const rows = deps.rows ?? 30
  const killGraceMs = deps.killGraceMs ?? 1500
  const scriptDir = join(deps.dataDir, 'terminal', 'scripts')
  const integrationDir = join(deps.dataDir, 'terminal', 'integration')
  const terminals = new Map<string, TerminalRecord>()
  const artifacts = new Map<string, CommandRecord>()
  const taskLocks = new Map<string, Promise<unknown>>()
  let terminalCounter = 0
  let artifactCounter = 0
  let changeQueued = false
  let disposed = false

  // Resolve the login shell's environment now, so the first command does not wait for it.
  void resolveEnv().catch(() => undefined)
  void removeStaleScripts(scriptDir)

  const coalescer = createDataCoalescer((terminalId, data) => deps.emit('terminal:data', { terminalId, data }), {
    intervalMs: deps.coalesceMs ?? 16
  })

  const toInfo = (t: TerminalRecord): TerminalInfo => ({
    id: t.id,
    kind: t.kind,
    taskId: t.taskId,
    title: t.title,
    shell: t.shell,
    pid: t.exited ? null : t.session.pid,
    cwd: t.session.cwd(),
    status: t.exited ? 'exited' : t.command && !t.command.info.endedAt ? 'busy' : t.session.state() === 'starting' && t.kind === 'task' ? 'starting' : 'idle',
    exitCode: t.exitCode,
    kept: t.kept,
    command: t.command ? { ...t.command.info } : null
  })

  const list = (): TerminalInfo[] => [...terminals.values()].map(toInfo)

  const changed = (): void => {
    if (changeQueued || disposed) return
    changeQueued = true
    setImmediate(() => {
      changeQueued = false
      if (!disposed) deps.emit('terminal:changed', list())
    })
  }

  const withTaskLock = <T>(taskId: string, work: () => Promise<T>): Promise<T> => {
    const previous = taskLocks.get(taskId) ?? Promise.resolve()
    const next = previous.then(work, work)
    taskLocks.set(taskId, next.catch(() => undefined))
    return next
  }

  async function shellEnv(kind: 'task' | 'user'): Promise<Record<string, string>> {
    const env = { ...(await resolveEnv()) }
    // Electron's own switches (ELECTRON_RUN_AS_NODE would turn every Electron app the user
    // starts from this shell into plain Node) must not leak into the user's commands.
    for (const key of Object.keys(env)) if (key.startsWith('ELECTRON_')) delete env[key]
    env.TERM = 'xterm-256color'
    env.COLORTERM = 'truecolor'
    env.TERM_PROGRAM = 'Modus'
    if (!env.LANG && !env.LC_ALL && platform !== 'win32') env.LANG = 'C.UTF-8'
    if (kind === 'task') {
      // The model cannot drive a pager; commands must print and end.
      env.PAGER = 'cat'
      env.GIT_PAGER = 'cat'
    }
    return env
  }

  const chosenShell = async (): Promise<ShellChoice> => chooseShell(await resolveEnv(), platform, deps.shell)

  function register(record: Omit<TerminalRecord, 'session'>, start: (hooks: { onOutput(t: string): void; onExit(c: number | null): void }) => ShellSession): TerminalRecord {
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
  }

  async function spawnTaskTerminal(taskId: string, rootReal: string, loadUserRc: boolean): Promise<{ terminal: TerminalRecord; ready: boolean }> {
    const choice = await chosenShell()
    const readyNonce = randomBytes(16).toString('hex')
    const launch = await prepareShellLaunch({
      choice,
      integrationDir,
      scriptDir,
      readyNonce,
      loadUserRc,
      userZdotdir: (await resolveEnv()).ZDOTDIR
    })
    const env = await shellEnv('task')
    const count = [...terminals.values()].filter((t) => t.taskId === taskId).length
    const terminal = register(
      {
        id: `task-${++terminalCounter}`,
        kind: 'task',
        taskId,
        title: count === 0 ? `Task ${taskId.slice(0, 8)}` : `Task ${taskId.slice(0, 8)} (${count + 1})`,
        shell: choice.file,
        kept: false,
        exitCode: null,
        exited: false,
        reserved: true,
        command: null
      },
      (hooks) =>
        createShellSession({ launch, cwd: rootReal, env, cols, rows, scriptDir, readyNonce, ...hooks })
    )
    const ready = await terminal.session.waitReady(deps.readyTimeoutMs ?? 10_000)
    return { terminal, ready }
  }

  /** An idle task shell sitting at its prompt, or a new one (the previous ones are busy). */
  async function acquireTaskTerminal(taskId: string, rootReal: string, notes: string[]): Promise<TerminalRecord> {
    for (const terminal of terminals.values()) {
      if (terminal.taskId !== taskId || terminal.exited || terminal.reserved) continue
      if (terminal.command && terminal.command.info.endedAt === null) continue
      terminal.reserved = true
      if (await terminal.session.atPrompt()) return terminal
      terminal.reserved = false
    }
    const live = [...terminals.values()].filter((t) => t.taskId === taskId && !t.exited).length
    if (live >= (deps.maxTerminalsPerTask ?? 8)) {
      throw new Error(`This task already has ${live} terminals busy with running commands; stop one before starting another.`)
    }
    pruneExited(taskId)
    const first = await spawnTaskTerminal(taskId, rootReal, deps.loadUserRc ?? true)
    if (first.ready) return first.terminal
    await killTerminal(first.terminal, true)
    notes.push('Your shell startup files did not finish loading in time, so this shell runs without them.')
    const second = await spawnTaskTerminal(taskId, rootReal, false)
    if (second.ready) return second.terminal
    await killTerminal(second.terminal, true)
    throw new Error(`The shell (${second.terminal.shell}) did not start.`)
  }

  /** Keeps the list short: exited task terminals beyond the last three are dropped. */
  function pruneExited(taskId: string): void {
    const exited = [...terminals.values()].filter((t) => t.taskId === taskId && t.exited)
    for (const terminal of exited.slice(0, Math.max(0, exited.length - 3))) terminals.delete(terminal.id)
  }

  async function killTerminal(terminal: TerminalRecord, remove: boolean): Promise<void> {
    if (!terminal.exited) await terminal.session.kill(killGraceMs)
    if (remove) {
      terminals.delete(terminal.id)
      changed()
    }
  }

  /** Finished commands older than the last 500 are forgotten in memory; their files stay readable. */
  function pruneArtifacts(): void {
    if (artifacts.size <= 500) return
    for (const [key, record] of artifacts) {
      if (artifacts.size <= 500) break
      if (record.info.endedAt !== null) artifacts.delete(key)
    }
  }

  const newArtifactId = (): string => `cmd-${Date.now()}${String(++artifactCounter % 1000).padStart(3, '0')}.txt`

  async function startCommand(terminal: TerminalRecord, taskId: string, command: string, runCwd: string | null): Promise<CommandRecord> {
    const dir = commandOutputDir(deps.dataDir, taskId)
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const artifactId = newArtifactId()
    const session = terminal.session
    const capture = createOutputCapture({
      filePath: join(dir, artifactId),
      headChars: Math.floor(previewChars * 0.3),
      tailChars: Math.ceil(previewChars * 0.7),
      maxFileBytes: deps.maxArtifactBytes ?? 256 * 1024 * 1024,
      onPressure: (paused) => (paused ? session.pause() : session.resume())
    })
    let running: RunningCommand
    try {
      running = await session.run(command, runCwd, capture)
    } catch (error) {
      await capture.finish()
      throw error
    }
    const info: TerminalCommandInfo = {
      id: running.nonce.slice(0, 12),
      artifactId,
      command,
      cwd: runCwd ?? session.cwd(),
      pid: null,
      state: 'running',
      background: false,
      startedAt: Date.now(),
      endedAt: null,
      exitCode: null
    }
    const record = { info, capture, running, stopReason: null, inputWait: { since: null, pid: null, inferred: false }, lastUserInputAt: 0 } as unknown as CommandRecord
    record.settled = running.done.then(async (end) => {
      const preview = await capture.finish()
      info.endedAt = Date.now()
      info.exitCode = end.exitCode
      info.state = record.stopReason ? 'killed' : 'exited'
      info.pid = null
      changed()
      return { end, preview }
    })
    terminal.command = record
    artifacts.set(`${taskId}/${artifactId}`, record)
    pruneArtifacts()
    void session.foregroundPid().then((pid) => {
      if (info.endedAt === null) {
        info.pid = pid
        changed()
      }
    })
    watchCommand(terminal, record)
    changed()
    return record
  }

  /** Input-wait detection and the hard limit, for the command's whole life (background too). */
  function watchCommand(terminal: TerminalRecord, record: CommandRecord): void {
    const hardLimit = deps.hardLimitMs?.() ?? 0
    let ticks = 0
    const monitor = startCommandMonitor({
      session: terminal.session,
      lastActivityAt: () => Math.max(record.running.lastOutputAt(), record.lastUserInputAt),
      quietMs: deps.inputQuietMs ?? 1500,
      inferredQuietMs: deps.inferredInputQuietMs ?? 20_000,
      intervalMs: 250,
      onChange: (state) => {
        record.inputWait = state
        if (record.info.endedAt === null) record.info.state = state.since !== null && !state.inferred ? 'waiting-input' : 'running'
        changed()
      },
      onTick: () => {
        if (hardLimit > 0 && record.stopReason === null && Date.now() - record.info.startedAt >= hardLimit) {
          void stopRecord(terminal, record, 'hard-limit')
        }
        if (++ticks % 8 === 0 && record.info.endedAt === null) {
          void terminal.session.foregroundPid().then((pid) => {
            if (record.info.endedAt === null && pid !== record.info.pid) {
              record.info.pid = pid
              changed()
            }
          })
        }
      }
    })
    void record.settled.finally(() => monitor.stop())
  }

  /** Stopping a command ends its shell too: a shell survives a killed child but would run the rest of its list. */
  async function stopRecord(terminal: TerminalRecord, record: CommandRecord, reason: 'cancelled' | 'hard-limit' | 'killed'): Promise<void> {
    if (record.info.endedAt !== null) return
    record.stopReason ??= reason
    await terminal.session.kill(killGraceMs)
    await record.settled
  }

  async function execute(taskId: string, rootReal: string, request: CommandRunRequest): Promise<CommandRunResult> {
    if (disposed) throw new Error('The terminal service has shut down.')
    if (request.signal?.aborted) throw new Error('The command was cancelled before it started.')
    const notes: string[] = []
    const explicitCwd = request.cwd !== undefined ? await resolveCommandCwd(rootReal, request.cwd) : null
    const { terminal, record } = await withTaskLock(taskId, async () => {
      const terminal = await acquireTaskTerminal(taskId, rootReal, notes)
      try {
        // Every call starts where the tool says (default: the workspace root), whatever an
        // earlier command cd-ed to; variables and functions do persist in the task shell.
        const record = await startCommand(terminal, taskId, request.command, explicitCwd ?? rootReal)
        return { terminal, record }
      } finally {
        terminal.reserved = false
      }
    })
    return awaitOutcome(terminal, record, request, notes)
  }

  async function awaitOutcome(terminal: TerminalRecord, record: CommandRecord, request: CommandRunRequest, notes: string[]): Promise<CommandRunResult> {
    const timeoutMs = request.timeoutMs ?? deps.defaultTimeoutMs ?? 120_000
    const waitReturnMs = deps.inputWaitReturnMs ?? 8000
    const outcome = await new Promise<CommandOutcome>((resolve) => {
      const timers: NodeJS.Timeout[] = []
      const done = (value: CommandOutcome): void => {
        for (const timer of timers) clearTimeout(timer)
        clearInterval(inputPoll)
        request.signal?.removeEventListener('abort', onAbort)
        resolve(value)
      }
      const onAbort = (): void => {
        void stopRecord(terminal, record, 'cancelled').then(() => done('cancelled'))
      }
      void record.settled.then(() => done(record.stopReason ?? 'exited'))
      timers.push(setTimeout(() => done('background'), timeoutMs))
      const inputPoll = setInterval(() => {
        const wait = record.inputWait
        // Silence alone (no /proc) is too weak to cut the call short; it becomes a note instead.
        if (wait.since !== null && !wait.inferred && Date.now() - Math.max(wait.since, record.lastUserInputAt) >= waitReturnMs) done('waiting-input')
      }, 250)
      if (request.signal?.aborted) onAbort()
      else request.signal?.addEventListener('abort', onAbort, { once: true })
    })
    const ended = record.info.endedAt !== null
    if (!ended) {
      record.info.background = true
      changed()
      if (outcome === 'background' && record.inputWait.inferred && record.inputWait.since !== null) {
        const quiet = Math.round((Date.now() - record.running.lastOutputAt()) / 1000)
        notes.push(`It has printed nothing for ${quiet} s; if it is waiting for input, the user can answer it in the terminal.`)
      }
    }
    const settled = ended ? await record.settled : null
    const exitCode = settled ? settled.end.exitCode : null
    if (settled?.end.kind === 'shell-exited' && !record.stopReason) notes.push('The shell exited; the next command starts a new shell.')
    return {
      outcome: settled?.end.kind === 'shell-exited' && !record.stopReason ? 'shell-exited' : outcome,
      exitCode,
      signal: signalName(exitCode),
      command: record.info.command,
      cwd: record.info.cwd,
      endCwd: settled?.end.kind === 'exited' ? settled.end.cwd : null,
      artifactId: record.info.artifactId,
      output: settled ? settled.preview : record.capture.preview(),
      pid: ended ? null : record.info.pid,
      terminalId: terminal.id,
      durationMs: (record.info.endedAt ?? Date.now()) - record.info.startedAt,
      waitingPid: outcome === 'waiting-input' ? record.inputWait.pid : null,
      notes
    }
  }

  const taskProcesses = (taskId: string): TerminalCommandInfo[] =>
    [...terminals.values()]
      .filter((t) => t.taskId === taskId && t.command && t.command.info.endedAt === null)
      .map((t) => ({ ...t.command!.info }))

  function forTask(taskId: string, workspaceRoot: string): TaskTerminal {
    let rootReal: Promise<string> | null = null
    const root = (): Promise<string> =>
      (rootReal ??= realpath(workspaceRoot).catch(() => {
        throw new Error(`The workspace folder ${workspaceRoot} does not exist.`)
      }))
    return {
      taskId,
      execute: async (request) => execute(taskId, await root(), request),
      async readOutput(artifactId, request) {
        if (!ARTIFACT_ID.test(artifactId)) {
          throw new Error(`Invalid artifact_id '${artifactId.slice(0, 80)}': expected the id execute_command gave, like cmd-1732250000000001.txt.`)
        }
        const path = join(commandOutputDir(deps.dataDir, taskId), artifactId)
        if (!existsSync(path)) throw new Error(`No saved output with artifact_id ${artifactId} in this task.`)
        const record = artifacts.get(`${taskId}/${artifactId}`)
        if (record && record.info.endedAt !== null) await record.settled
        else if (record) await record.capture.sync()
        const page = await readOutputFile(path, request)
        return { ...page, command: record ? { ...record.info } : null }
      },
      processes: () => taskProcesses(taskId),
      describeProcesses() {
        const now = Date.now()
        return taskProcesses(taskId)
          .map((p) => `- ${p.command} (pid ${p.pid ?? '?'}, ${p.state}, running ${Math.round((now - p.startedAt) / 1000)} s, output: ${p.artifactId})`)
          .join('\n')
      }
    }
  }

  const find = (terminalId: string): TerminalRecord => {
    const terminal = terminals.get(terminalId)
    if (!terminal) throw new Error(`No terminal ${terminalId}.`)
    return terminal
  }

  async function createUserTerminal(request: { cwd?: string; cols?: number; rows?: number; workspaceRoot: string | null }): Promise<TerminalInfo> {
    if (disposed) throw new Error('The terminal service has shut down.')
    const rootReal = request.workspaceRoot ? await realpath(request.workspaceRoot) : null
    const cwd = request.cwd
      ? rootReal
        ? await resolveCommandCwd(rootReal, request.cwd)
        : await realpath(request.cwd)
      : (rootReal ?? homedir())
    const choice = await chosenShell()
    const env = await shellEnv('user')
    const args = choice.kind === 'pwsh' ? ['-NoLogo'] : platform === 'darwin' ? ['-l'] : []
    const number = [...terminals.values()].filter((t) => t.kind === 'user').length + 1
    const terminal = register(
      { id: `user-${++terminalCounter}`, kind: 'user', taskId: null, title: `Terminal ${number}`, shell: choice.file, kept: true, exitCode: null, exited: false, reserved: false, command: null },
      (hooks) =>
        createShellSession({
          launch: { kind: choice.kind, file: choice.file, args, env: {} },
          cwd,
          env,
          cols: request.cols ?? cols,
          rows: request.rows ?? rows,
          scriptDir,
          readyNonce: randomBytes(16).toString('hex'),
          ...hooks
        })
    )
    return toInfo(terminal)
  }

  return {
    forTask,
    list,
    createUserTerminal,
    write(terminalId, data) {
      const terminal = find(terminalId)
      if (terminal.exited) throw new Error(`Terminal ${terminalId} has exited.`)
      if (terminal.command && terminal.command.info.endedAt === null) terminal.command.lastUserInputAt = Date.now()
      terminal.session.write(data)
    },
    resize(terminalId, c, r) {
      find(terminalId).session.resize(c, r)
    },
    async kill(terminalId) {
      const terminal = find(terminalId)
      if (terminal.command && terminal.command.info.endedAt === null) terminal.command.stopReason ??= 'killed'
      await killTerminal(terminal, terminal.exited)
      changed()
    },
    async stopCommand(terminalId) {
      const terminal = find(terminalId)
      if (terminal.command) await stopRecord(terminal, terminal.command, 'killed')
    },
    keep(terminalId, keep) {
      const terminal = find(terminalId)
      if (terminal.kind === 'user') return
      terminal.kept = keep
      changed()
    },
    scrollback(terminalId) {
      const terminal = find(terminalId)
      // Deliver pending data first: a view that writes this text then appends later events gets
      // every byte once.
      coalescer.flush(terminalId)
      return terminal.session.scrollback()
    },
    async endTask(taskId) {
      const ending = [...terminals.values()].filter((t) => t.taskId === taskId && !t.kept)
      await Promise.all(
        ending.map(async (terminal) => {
          if (terminal.command && terminal.command.info.endedAt === null) terminal.command.stopReason ??= 'killed'
          await killTerminal(terminal, true)
        })
      )
    },
    retainedChars() {
      let total = 0
      for (const terminal of terminals.values()) {
        total += terminal.session.scrollbackSize()
        if (terminal.command && terminal.command.info.endedAt === null) total += terminal.command.capture.retainedChars()
      }
      return total
    },
    async dispose() {
      await Promise.all([...terminals.values()].map((terminal) => killTerminal(terminal, false)))
      disposed = true
      coalescer.dispose()
      terminals.clear()
    }
  }
}

/**
 * Command scripts are deleted when their command ends; a crash leaves some behind. Another Modus
 * process (the CLI beside the app) may share the dir, so only day-old files go.
 */
async function removeStaleScripts(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[])
  const cutoff = Date.now() - 24 * 60 * 60 * 1000
  await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name)
      const info = await stat(path).catch(() => null)
      if (info && info.isFile() && info.mtimeMs < cutoff) await rm(path, { force: true }).catch(() => undefined)
    })
  )
}
