import type { TerminalCommandInfo, TerminalInfo } from '../../../shared/contract/terminal'
import type { OutputPage, OutputReadRequest } from './output-reader'
import type { OutputPreview } from './output-capture'

export type { OutputPage, OutputReadRequest, OutputPreview }

/** How a command's model call ended. */
export type CommandOutcome =
  /** It finished; `exitCode` is its status (128+n when signal n ended it). */
  | 'exited'
  /** The model's timeout passed; it keeps running and writing to its artifact. */
  | 'background'
  /** It is blocked reading the terminal; it keeps running until someone answers or stops it. */
  | 'waiting-input'
  /** The task was cancelled: the process tree was killed. */
  | 'cancelled'
  /** The user's hard limit passed: the process tree was killed. */
  | 'hard-limit'
  /** Someone stopped it (user, task end). */
  | 'killed'
  /** The shell itself exited (`exit`, `exec`): the status is the shell's. */
  | 'shell-exited'

export interface CommandRunRequest {
  command: string
  /** Inside the workspace; relative to its root. Default: the workspace root (each call). */
  cwd?: string
  /** The model's timeout: after it the command moves to the background. */
  timeoutMs?: number
  signal?: AbortSignal
  /**
   * Names the shell that runs it must resolve to the programs of those names (an auto-approved
   * command's run plan): asked of that shell just before it runs; otherwise ShellNamesChanged is
   * thrown and nothing runs.
   */
  checkNames?: readonly string[]
  /** The command as the model wrote it, which the terminal's tab and command list show (`command` may be a run plan's rewrite). */
  label?: string
  /**
   * Runs the command in a sandbox: given it, the task shell and the shell's terminal device (a warm
   * sandbox writes the command's output there), returns the text the shell runs instead.
   */
  sandbox?: (command: string, shell: string, tty?: string) => Promise<SandboxWrap>
  /** Fed the command's output as it streams, escape sequences removed (the chat's live tail). */
  onOutput?: (text: string) => void
}

/** A command wrapped in the OS sandbox, as the terminal runs it. */
export interface SandboxWrap {
  text: string
  /** A note for the model about how the sandbox ran it (e.g. shell state it set is not kept). */
  note?: string
  /** Fed the command's whole output as it streams (the preview keeps only its head and tail). */
  scan(text: string): void
  /** Called once when the command has ended, with its output preview: what the sandbox blocked, or null. */
  finish(output: string): string | null
}

export interface CommandRunResult {
  outcome: CommandOutcome
  exitCode: number | null
  /** Signal name when the status says a signal ended it (e.g. SIGKILL for 137). */
  signal: string | null
  command: string
  /** Where it started; `endCwd` is where the shell was when it ended. */
  cwd: string
  endCwd: string | null
  artifactId: string
  output: OutputPreview
  pid: number | null
  terminalId: string
  durationMs: number
  /** Set with `waiting-input`: the process blocked on the terminal (null when inferred from silence). */
  waitingPid: number | null
  /** Extra facts for the model (a reset cwd, a shell restarted without rc files). */
  notes: string[]
  /** Set when it ran in the sandbox and the sandbox blocked a write or a connection: one line. */
  sandboxBlocked?: string | null
}

/** What an executor sees of the terminal: bound to one task and its workspace. */
export interface TaskTerminal {
  readonly taskId: string
  execute(request: CommandRunRequest): Promise<CommandRunResult>
  /** Pages or searches a saved output of this task; also says whether it still runs. */
  readOutput(
    artifactId: string,
    request: OutputReadRequest
  ): Promise<OutputPage & { command: TerminalCommandInfo | null }>
  /** Commands of this task still running (dev servers, watchers, timed-out builds). */
  processes(): TerminalCommandInfo[]
  /** One line per background command, for the model's environment details; '' when none. */
  describeProcesses(): string
  /** The task's most recent command (running or ended), whose saved output `@terminal` attaches; null before any. */
  lastCommand?(): TerminalCommandInfo | null
}

export interface TerminalService {
  /** The task's terminals; `taskTitle` names their tabs; `env`: variables its shells start with (an isolated task's ports). */
  forTask(taskId: string, workspaceRoot: string, taskTitle?: string, env?: Record<string, string>): TaskTerminal
  list(): TerminalInfo[]
  createUserTerminal(request: {
    cwd?: string
    cols?: number
    rows?: number
    workspaceRoot: string | null
  }): Promise<TerminalInfo>
  write(terminalId: string, data: string): void
  resize(terminalId: string, cols: number, rows: number): void
  /** Ends the terminal's shell and all in it; an exited terminal is removed from the list. */
  kill(terminalId: string): Promise<void>
  /** Stops the running command's whole process tree. */
  stopCommand(terminalId: string): Promise<void>
  keep(terminalId: string, keep: boolean): void
  scrollback(terminalId: string): string
  /** Ends the task's terminals except those the user keeps. */
  endTask(taskId: string): Promise<void>
  /** Characters held in memory by captures and scrollbacks (for memory-bound checks). */
  retainedChars(): number
  dispose(): Promise<void>
}
