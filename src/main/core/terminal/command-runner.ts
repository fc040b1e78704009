import { constants as osConstants } from 'node:os'
import type { TerminalCommandInfo } from '../../../shared/contract/terminal'
import type { CommandArtifacts } from './command-artifacts'
import { startCommandMonitor } from './command-monitor'
import { nameProbe, nameProblems, parseNameProbe, ShellNamesChanged } from './name-check'
import { resolveCommandCwd } from './paths'
import type { ShellLauncher } from './shell-launcher'
import type { RunningCommand } from './shell-session'
import type { CommandRecord, TerminalRecord, TerminalRegistry } from './terminal-registry'
import type { CommandOutcome, CommandRunRequest, CommandRunResult, SandboxWrap } from './types'

export interface CommandRunnerDeps {
  registry: TerminalRegistry
  shells: ShellLauncher
  artifacts: CommandArtifacts
  /** Source the user's rc files in task shells. */
  loadUserRc: boolean
  /** Model timeout when the call gives none; then the command goes to the background. */
  defaultTimeoutMs: number
  /** The user's hard limit; past it a command is killed. 0/undefined = none. Read per command. */
  hardLimitMs?: () => number | undefined
  /** Silence before checking whether a command waits for input. */
  inputQuietMs: number
  /** How long a detected input wait lasts before the model's call returns. */
  inputWaitReturnMs: number
  /** Silence that counts as a possible input wait where tty reads cannot be seen. */
  inferredInputQuietMs: number
  /** Time for the shell's rc files to load. */
  readyTimeoutMs: number
  killGraceMs: number
  maxTerminalsPerTask: number
}

/** Runs the model's commands in the task's shells: one at a time per shell, watched until they end. */
export interface CommandRunner {
  execute(taskId: string, rootReal: string, request: CommandRunRequest): Promise<CommandRunResult>
  /** Stopping a command ends its shell too: a shell survives a killed child but would run the rest of its list. */
  stop(terminal: TerminalRecord, record: CommandRecord, reason: 'cancelled' | 'hard-limit' | 'killed'): Promise<void>
  /** Task terminals are named after their task (the tab adds the command). */
  nameTask(taskId: string, title: string): void
  /** Variables the task's shells start with (an isolated task's `PORT`, `MODUS_PORT_BASE`). */
  setTaskEnv(taskId: string, env: Record<string, string>): void
}

/** "Fix the login form", "Fix the login form (2)": a long title is cut to keep the tab short. */
function taskTerminalTitle(taskTitle: string, othersOfTask: number): string {
  const title = taskTitle.length > 40 ? `${taskTitle.slice(0, 39)}…` : taskTitle
  return othersOfTask === 0 ? title : `${title} (${othersOfTask + 1})`
}

const signalName = (code: number | null): string | null => {
  if (code === null || code <= 128 || code > 128 + 64) return null
  const entry = Object.entries(osConstants.signals).find(([, n]) => n === code - 128)
  return entry ? entry[0] : null
}

export function createCommandRunner(deps: CommandRunnerDeps): CommandRunner {
  const { registry } = deps
  const taskLocks = new Map<string, Promise<unknown>>()
  const taskTitles = new Map<string, string>()
  const taskEnvs = new Map<string, Record<string, string>>()

  const withTaskLock = <T>(taskId: string, work: () => Promise<T>): Promise<T> => {
    const previous = taskLocks.get(taskId) ?? Promise.resolve()
    const next = previous.then(work, work)
    taskLocks.set(
      taskId,
      next.catch(() => undefined)
    )
    return next
  }

  async function spawnTaskTerminal(
    taskId: string,
    rootReal: string,
    loadUserRc: boolean
  ): Promise<{ terminal: TerminalRecord; ready: boolean }> {
    const shell = await deps.shells.taskShell(rootReal, loadUserRc, taskEnvs.get(taskId))
    const count = registry.all().filter((t) => t.taskId === taskId).length
    const terminal = registry.add(
      {
        id: registry.nextId('task'),
        kind: 'task',
        taskId,
        title: taskTerminalTitle(taskTitles.get(taskId) ?? `Task ${taskId.slice(0, 8)}`, count),
        shell: shell.shell,
        kept: false,
        exitCode: null,
        exited: false,
        reserved: true,
        command: null
      },
      shell.start
    )
    const ready = await terminal.session.waitReady(deps.readyTimeoutMs)
    return { terminal, ready }
  }

  /** An idle task shell sitting at its prompt, or a new one (the previous ones are busy). */
  async function acquireTaskTerminal(taskId: string, rootReal: string, notes: string[]): Promise<TerminalRecord> {
    for (const terminal of registry.all()) {
      if (terminal.taskId !== taskId || terminal.exited || terminal.reserved) continue
      if (terminal.command && terminal.command.info.endedAt === null) continue
      terminal.reserved = true
      if (await terminal.session.atPrompt()) return terminal
      terminal.reserved = false
    }
    const live = registry.all().filter((t) => t.taskId === taskId && !t.exited).length
    if (live >= deps.maxTerminalsPerTask) {
      throw new Error(
        `This task already has ${live} terminals busy with running commands; stop one before starting another.`
      )
    }
    registry.pruneExited(taskId)
    const first = await spawnTaskTerminal(taskId, rootReal, deps.loadUserRc)
    if (first.ready) return first.terminal
    await registry.kill(first.terminal, true)
    notes.push('Your shell startup files did not finish loading in time, so this shell runs without them.')
    const second = await spawnTaskTerminal(taskId, rootReal, false)
    if (second.ready) return second.terminal
    await registry.kill(second.terminal, true)
    throw new Error(`The shell (${second.terminal.shell}) did not start.`)
  }

  async function startCommand(
    terminal: TerminalRecord,
    taskId: string,
    command: string,
    runCwd: string | null,
    wrap: SandboxWrap | null,
    label = command,
    onOutput?: (text: string) => void
  ): Promise<CommandRecord> {
    const session = terminal.session
    const { artifactId, capture } = await deps.artifacts.create(taskId, (paused) =>
      paused ? session.pause() : session.resume()
    )
    if (wrap) capture.observe((text) => wrap.scan(text))
    if (onOutput) capture.observe(onOutput)
    let running: RunningCommand
    try {
      running = await session.run(wrap ? wrap.text : command, runCwd, capture, command)
    } catch (error) {
      await capture.finish()
      wrap?.finish('')
      throw error
    }
    const info: TerminalCommandInfo = {
      id: running.nonce.slice(0, 12),
      artifactId,
      command: label,
      cwd: runCwd ?? session.cwd(),
      pid: null,
      state: 'running',
      background: false,
      startedAt: Date.now(),
      endedAt: null,
      exitCode: null
    }
    const record = {
      info,
      capture,
      running,
      stopReason: null,
      inputWait: { since: null, pid: null, inferred: false },
      lastUserInputAt: 0
    } as unknown as CommandRecord
    record.settled = running.done.then(async (end) => {
      const preview = await capture.finish()
      info.endedAt = Date.now()
      info.exitCode = end.exitCode
      info.state = record.stopReason ? 'killed' : 'exited'
      info.pid = null
      registry.changed()
      return { end, preview, sandboxBlocked: wrap ? wrap.finish(preview.text) : null }
    })
    terminal.command = record
    deps.artifacts.track(taskId, artifactId, record)
    void session.foregroundPid().then((pid) => {
      if (info.endedAt === null) {
        info.pid = pid
        registry.changed()
      }
    })
    watchCommand(terminal, record)
    registry.changed()
    return record
  }

  /** Input-wait detection and the hard limit, for the command's whole life (background too). */
  function watchCommand(terminal: TerminalRecord, record: CommandRecord): void {
    const hardLimit = deps.hardLimitMs?.() ?? 0
    let ticks = 0
    const monitor = startCommandMonitor({
      session: terminal.session,
      lastActivityAt: () => Math.max(record.running.lastOutputAt(), record.lastUserInputAt),
      quietMs: deps.inputQuietMs,
      inferredQuietMs: deps.inferredInputQuietMs,
      intervalMs: 250,
      onChange: (state) => {
        record.inputWait = state
        if (record.info.endedAt === null)
          record.info.state = state.since !== null && !state.inferred ? 'waiting-input' : 'running'
        registry.changed()
      },
      onTick: () => {
        if (hardLimit > 0 && record.stopReason === null && Date.now() - record.info.startedAt >= hardLimit) {
          void stop(terminal, record, 'hard-limit')
        }
        if (++ticks % 8 === 0 && record.info.endedAt === null) {
          void terminal.session.foregroundPid().then((pid) => {
            if (record.info.endedAt === null && pid !== record.info.pid) {
              record.info.pid = pid
              registry.changed()
            }
          })
        }
      }
    })
    void record.settled.finally(() => monitor.stop())
  }

  async function stop(
    terminal: TerminalRecord,
    record: CommandRecord,
    reason: 'cancelled' | 'hard-limit' | 'killed'
  ): Promise<void> {
    if (record.info.endedAt !== null) return
    record.stopReason ??= reason
    await terminal.session.kill(deps.killGraceMs)
    await record.settled
  }

  /** The model's call returns when the command ends, times out, waits for input or is cancelled. */
  function outcomeOf(
    terminal: TerminalRecord,
    record: CommandRecord,
    request: CommandRunRequest
  ): Promise<CommandOutcome> {
    const timeoutMs = request.timeoutMs ?? deps.defaultTimeoutMs
    return new Promise<CommandOutcome>((resolve) => {
      const done = (value: CommandOutcome): void => {
        clearTimeout(timer)
        clearInterval(inputPoll)
        request.signal?.removeEventListener('abort', onAbort)
        resolve(value)
      }
      const onAbort = (): void => {
        void stop(terminal, record, 'cancelled').then(() => done('cancelled'))
      }
      void record.settled.then(() => done(record.stopReason ?? 'exited'))
      const timer = setTimeout(() => done('background'), timeoutMs)
      const inputPoll = setInterval(() => {
        const wait = record.inputWait
        // Silence alone (no /proc) is too weak to cut the call short; it becomes a note instead.
        if (
          wait.since !== null &&
          !wait.inferred &&
          Date.now() - Math.max(wait.since, record.lastUserInputAt) >= deps.inputWaitReturnMs
        )
          done('waiting-input')
      }, 250)
      if (request.signal?.aborted) onAbort()
      else request.signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  async function awaitOutcome(
    terminal: TerminalRecord,
    record: CommandRecord,
    request: CommandRunRequest,
    notes: string[]
  ): Promise<CommandRunResult> {
    const outcome = await outcomeOf(terminal, record, request)
    const ended = record.info.endedAt !== null
    if (!ended) {
      record.info.background = true
      registry.changed()
      if (outcome === 'background' && record.inputWait.inferred && record.inputWait.since !== null) {
        const quiet = Math.round((Date.now() - record.running.lastOutputAt()) / 1000)
        notes.push(
          `It has printed nothing for ${quiet} s; if it is waiting for input, the user can answer it in the terminal.`
        )
      }
    }
    const settled = ended ? await record.settled : null
    const exitCode = settled ? settled.end.exitCode : null
    const shellExited = settled?.end.kind === 'shell-exited' && !record.stopReason
    if (shellExited) notes.push('The shell exited; the next command starts a new shell.')
    return {
      outcome: shellExited ? 'shell-exited' : outcome,
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
      notes,
      sandboxBlocked: settled?.sandboxBlocked ?? null
    }
  }

  /** Asks the shell what each name means; throws ShellNamesChanged when one is not the program of that name. */
  async function checkNames(terminal: TerminalRecord, names: readonly string[], cwd: string): Promise<void> {
    const probe = nameProbe(terminal.session.kind, names)
    if (!probe)
      throw new ShellNamesChanged([
        { name: names[0] ?? '', says: `what names mean cannot be checked in ${terminal.shell}` }
      ])
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), deps.readyTimeoutMs)))
    const output = await Promise.race([terminal.session.probe(probe.script), timedOut])
    clearTimeout(timer)
    const parsed = output === null ? null : parseNameProbe(output, probe.separator)
    if (!parsed) {
      // A shell that does not answer the question plainly is not one to run the command in.
      await registry.kill(terminal, true)
      throw new ShellNamesChanged([
        { name: names[0] ?? '', says: 'the task shell did not answer what its command names mean (it was restarted)' }
      ])
    }
    const problems = nameProblems(parsed, cwd)
    if (problems.length > 0) throw new ShellNamesChanged(problems)
  }

  return {
    nameTask(taskId, title) {
      if (title.trim()) taskTitles.set(taskId, title.trim())
    },
    setTaskEnv(taskId, env) {
      if (Object.keys(env).length > 0) taskEnvs.set(taskId, { ...env })
    },
    async execute(taskId, rootReal, request) {
      if (registry.disposed) throw new Error('The terminal service has shut down.')
      if (request.signal?.aborted) throw new Error('The command was cancelled before it started.')
      const notes: string[] = []
      const explicitCwd = request.cwd !== undefined ? await resolveCommandCwd(rootReal, request.cwd) : null
      const { terminal, record } = await withTaskLock(taskId, async () => {
        const terminal = await acquireTaskTerminal(taskId, rootReal, notes)
        try {
          // In the same shell, under the same lock: nothing can run in between.
          if (request.checkNames && request.checkNames.length > 0)
            await checkNames(terminal, request.checkNames, explicitCwd ?? rootReal)
          const wrap = request.sandbox
            ? await request.sandbox(request.command, terminal.shell, terminal.session.tty)
            : null
          if (wrap?.note) notes.push(wrap.note)
          // Every call starts where the tool says (default: the workspace root), whatever an
          // earlier command cd-ed to; variables and functions do persist in the task shell.
          const record = await startCommand(
            terminal,
            taskId,
            request.command,
            explicitCwd ?? rootReal,
            wrap,
            request.label,
            request.onOutput
          )
          return { terminal, record }
        } finally {
          terminal.reserved = false
        }
      })
      return awaitOutcome(terminal, record, request, notes)
    },
    stop
  }
}
