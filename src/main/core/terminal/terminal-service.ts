import { realpath } from 'node:fs/promises'
import { homedir } from 'node:os'
import type { TerminalCommandInfo, TerminalInfo } from '../../../shared/contract/terminal'
import { createCommandArtifacts } from './command-artifacts'
import { createCommandRunner } from './command-runner'
import type { ResolveEnv } from './login-env'
import { resolveCommandCwd } from './paths'
import { createShellLauncher } from './shell-launcher'
import { createTerminalRegistry, type TerminalEventSink } from './terminal-registry'
import type { TaskTerminal, TerminalService } from './types'

export type { TerminalEventSink }

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

/**
 * The terminals of the app: the task shells the model's commands run in (command runner), their
 * saved outputs (command artifacts) and the user's own terminals, all listed in one registry.
 */
export function createTerminalService(deps: TerminalServiceDeps): TerminalService {
  const cols = deps.cols ?? 120
  const rows = deps.rows ?? 30
  const killGraceMs = deps.killGraceMs ?? 1500
  const registry = createTerminalRegistry({ emit: deps.emit, killGraceMs, coalesceMs: deps.coalesceMs ?? 16 })
  const shells = createShellLauncher({
    dataDir: deps.dataDir,
    resolveEnv: deps.resolveEnv,
    shell: deps.shell,
    cols,
    rows
  })
  const artifacts = createCommandArtifacts({
    dataDir: deps.dataDir,
    previewChars: deps.previewChars ?? 10_000,
    maxArtifactBytes: deps.maxArtifactBytes ?? 256 * 1024 * 1024
  })
  const runner = createCommandRunner({
    registry,
    shells,
    artifacts,
    loadUserRc: deps.loadUserRc ?? true,
    defaultTimeoutMs: deps.defaultTimeoutMs ?? 120_000,
    hardLimitMs: deps.hardLimitMs,
    inputQuietMs: deps.inputQuietMs ?? 1500,
    inputWaitReturnMs: deps.inputWaitReturnMs ?? 8000,
    inferredInputQuietMs: deps.inferredInputQuietMs ?? 20_000,
    readyTimeoutMs: deps.readyTimeoutMs ?? 10_000,
    killGraceMs,
    maxTerminalsPerTask: deps.maxTerminalsPerTask ?? 8
  })

  function forTask(
    taskId: string,
    workspaceRoot: string,
    taskTitle?: string,
    env?: Record<string, string>
  ): TaskTerminal {
    if (taskTitle) runner.nameTask(taskId, taskTitle)
    if (env) runner.setTaskEnv(taskId, env)
    let rootReal: Promise<string> | null = null
    const root = (): Promise<string> =>
      (rootReal ??= realpath(workspaceRoot).catch(() => {
        throw new Error(`The workspace folder ${workspaceRoot} does not exist.`)
      }))
    return {
      taskId,
      execute: async (request) => runner.execute(taskId, await root(), request),
      readOutput: (artifactId, request) => artifacts.read(taskId, artifactId, request),
      processes: () => registry.runningCommands(taskId),
      describeProcesses() {
        const now = Date.now()
        return registry
          .runningCommands(taskId)
          .map(
            (p) =>
              `- ${p.command} (pid ${p.pid ?? '?'}, ${p.state}, running ${Math.round((now - p.startedAt) / 1000)} s, output: ${p.artifactId})`
          )
          .join('\n')
      },
      lastCommand() {
        const commands = registry
          .all()
          .filter((t) => t.taskId === taskId && t.command)
          .map((t) => t.command!.info)
        return commands.reduce<TerminalCommandInfo | null>(
          (latest, info) => (!latest || info.startedAt > latest.startedAt ? { ...info } : latest),
          null
        )
      }
    }
  }

  async function createUserTerminal(request: {
    cwd?: string
    cols?: number
    rows?: number
    workspaceRoot: string | null
  }): Promise<TerminalInfo> {
    if (registry.disposed) throw new Error('The terminal service has shut down.')
    const rootReal = request.workspaceRoot ? await realpath(request.workspaceRoot) : null
    const cwd = request.cwd
      ? rootReal
        ? await resolveCommandCwd(rootReal, request.cwd)
        : await realpath(request.cwd)
      : (rootReal ?? homedir())
    const shell = await shells.userShell(cwd, request)
    const number = registry.all().filter((t) => t.kind === 'user').length + 1
    const terminal = registry.add(
      {
        id: registry.nextId('user'),
        kind: 'user',
        taskId: null,
        title: `Terminal ${number}`,
        shell: shell.shell,
        kept: true,
        exitCode: null,
        exited: false,
        reserved: false,
        command: null
      },
      shell.start
    )
    return registry.info(terminal)
  }

  return {
    forTask,
    list: registry.list,
    createUserTerminal,
    write(terminalId, data) {
      const terminal = registry.find(terminalId)
      if (terminal.exited) throw new Error(`Terminal ${terminalId} has exited.`)
      if (terminal.command && terminal.command.info.endedAt === null) terminal.command.lastUserInputAt = Date.now()
      terminal.session.write(data)
    },
    resize(terminalId, c, r) {
      registry.find(terminalId).session.resize(c, r)
    },
    async kill(terminalId) {
      const terminal = registry.find(terminalId)
      if (terminal.command && terminal.command.info.endedAt === null) terminal.command.stopReason ??= 'killed'
      await registry.kill(terminal, terminal.exited)
      registry.changed()
    },
    async stopCommand(terminalId) {
      const terminal = registry.find(terminalId)
      if (terminal.command) await runner.stop(terminal, terminal.command, 'killed')
    },
    keep(terminalId, keep) {
      const terminal = registry.find(terminalId)
      if (terminal.kind === 'user') return
      terminal.kept = keep
      registry.changed()
    },
    scrollback(terminalId) {
      const terminal = registry.find(terminalId)
      // Deliver pending data first: a view that writes this text then appends later events gets
      // every byte once.
      registry.flush(terminalId)
      return terminal.session.scrollback()
    },
    async endTask(taskId) {
      const ending = registry.all().filter((t) => t.taskId === taskId && !t.kept)
      await Promise.all(
        ending.map(async (terminal) => {
          if (terminal.command && terminal.command.info.endedAt === null) terminal.command.stopReason ??= 'killed'
          await registry.kill(terminal, true)
        })
      )
    },
    retainedChars() {
      let total = 0
      for (const terminal of registry.all()) {
        total += terminal.session.scrollbackSize()
        if (terminal.command && terminal.command.info.endedAt === null)
          total += terminal.command.capture.retainedChars()
      }
      return total
    },
    dispose: () => registry.dispose()
  }
}
