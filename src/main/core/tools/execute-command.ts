import type { ExecuteCommandParams } from '../../../shared/tools/execute-command'
import { ShellNamesChanged } from '../terminal/name-check'
import type { SaveStopped } from '../terminal/output-capture'
import type { CommandRunResult } from '../terminal/types'
import { createLiveTail } from '../terminal/live-tail'
import { textOutput, type CommandToolContext, type ToolExecutor } from '../ports/tool-types'

/**
 * execute_command: runs the command in the task's persistent shell (a real pty), then tells the
 * model how it ended and shows an ANSI-free head + tail of the output; the full output stays on
 * disk under an artifact_id for read_command_output. An auto-approved command runs as its run
 * plan says (the text with git's overrides, after the shell confirmed what its names mean); when
 * a name means something else there, nothing runs and the loop asks the user instead.
 */
export function createExecuteCommandExecutor(): ToolExecutor<ExecuteCommandParams, CommandToolContext> {
  return {
    async execute(params, ctx) {
      const live = ctx.reportOutput ? createLiveTail(ctx.reportOutput) : null
      try {
        const plan = ctx.plan
        const command = plan?.command ?? params.command
        const sandbox =
          (await ctx.sandbox?.({ command: params.command, outsideSandbox: params.outside_sandbox === true })) ?? null
        const result = await ctx.terminal.execute({
          command,
          label: params.command,
          checkNames: plan?.names,
          cwd: params.cwd,
          timeoutMs: params.timeout !== undefined ? Math.round(params.timeout * 1000) : undefined,
          signal: ctx.signal,
          sandbox: sandbox && 'wrap' in sandbox ? sandbox.wrap : undefined,
          onOutput: live ? (text) => live.push(text) : undefined
        })
        live?.close()
        const unsandboxed = sandbox && 'outside' in sandbox ? `Sandbox: not used. ${sandbox.outside}` : null
        const rewritten =
          command !== params.command
            ? `Ran as: ${command} (git with the repository's code-running config turned off)`
            : null
        const note = [unsandboxed, rewritten].filter(Boolean).join('\n') || null
        const output = textOutput(formatCommandResult(result, note), result.outcome === 'cancelled')
        return result.outcome === 'exited' && result.exitCode !== null
          ? { ...output, exitCode: result.exitCode }
          : output
      } catch (error) {
        if (error instanceof ShellNamesChanged)
          return {
            ...textOutput(`Not run: ${error.message}.`, true),
            needsApproval: { rule: 'shell-name', reason: `${error.message}; so the command was not auto-approved` }
          }
        return textOutput(`execute_command failed: ${error instanceof Error ? error.message : String(error)}`, true)
      } finally {
        // A command left running in the background keeps writing to its artifact, not to the card.
        live?.close()
      }
    }
  }
}

export const executeCommandExecutor = createExecuteCommandExecutor()

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`

function outputBlock(result: CommandRunResult, label: string): string {
  const { output, artifactId } = result
  if (output.totalBytes === 0 && !output.text) return `${label}: (none)`
  const size = `${output.totalBytes.toLocaleString('en-US')} bytes`
  const stopped = output.saveStopped
  const saved = stopped
    ? `${output.truncated ? ', truncated here' : ''}; only the first ${stopped.atByte.toLocaleString('en-US')} bytes are saved as artifact_id ${artifactId}`
    : output.truncated
      ? `, truncated here; the full output is saved as artifact_id ${artifactId} (page or search it with read_command_output)`
      : ''
  const why = stopped ? `\n\n${savedOutputCut(stopped)}` : ''
  return `${label} (${size}${saved}):\n${output.text}${why}`
}

/** Said wherever a cut saved output is shown: what is missing, why, and that no read or search can find it. */
export const savedOutputCut = (stopped: SaveStopped): string =>
  `[The saved output stops at byte ${stopped.atByte.toLocaleString('en-US')} of ${stopped.printedBytes.toLocaleString('en-US')} printed: ${stopped.reason} ` +
  `What came after is not saved: read_command_output cannot show it and a search cannot find it; only the lines shown here are known.]`

function statusLine(result: CommandRunResult): string {
  if (result.exitCode === 0) return `Command exited with code 0 in ${result.cwd}.`
  const how = result.signal
    ? `was ended by ${result.signal} (exit code ${result.exitCode})`
    : `failed with exit code ${result.exitCode}`
  const hint = result.exitCode === 127 ? ' Exit code 127 means the command was not found.' : ''
  return `Command ${how} in ${result.cwd}.${hint}`
}

const stopHint = (result: CommandRunResult): string =>
  result.pid !== null ? ` To stop it, run \`kill -TERM -- -${result.pid}\` (its process group).` : ''

/** The result text; a sandbox line (what it blocked, or why it was not used) follows the status line. */
export function formatCommandResult(result: CommandRunResult, sandboxNote: string | null = null): string {
  const text = formatOutcome(result)
  const line = [sandboxNote, result.sandboxBlocked].filter(Boolean).join('\n')
  if (!line) return text
  const end = text.indexOf('\n')
  return end === -1 ? `${text}\n${line}` : `${text.slice(0, end)}\n${line}${text.slice(end)}`
}

function formatOutcome(result: CommandRunResult): string {
  const notes = result.notes.length > 0 ? `\n\nNote: ${result.notes.join(' ')}` : ''
  const saved = `artifact_id ${result.artifactId}`
  switch (result.outcome) {
    case 'exited':
      return `${statusLine(result)}\n\n${outputBlock(result, 'Output')}${notes}`
    case 'background':
      return (
        `The command is still running after ${seconds(result.durationMs)} and continues in the background ` +
        `(pid ${result.pid ?? 'unknown'}, ${saved}).\n\n${outputBlock(result, 'Output so far')}\n\n` +
        `Its output keeps being saved; read it later with read_command_output (${saved}). ` +
        `It ends with the task unless the user keeps it.${stopHint(result)}${notes}`
      )
    case 'waiting-input': {
      const who =
        result.waitingPid !== null
          ? `process ${result.waitingPid} is blocked reading the terminal`
          : 'it has printed nothing for a while'
      return (
        `The command seems to be waiting for input: ${who}.\n\n${outputBlock(result, 'Output so far')}\n\n` +
        `It is still running in the task terminal, where the user can answer it. You cannot type into it: ` +
        `ask the user to answer, or stop it and re-run it non-interactively (a --yes flag, input piped in). ` +
        `Its output keeps being saved (${saved}).${stopHint(result)}${notes}`
      )
    }
    case 'cancelled':
      return `The command was cancelled and its process tree killed.\n\n${outputBlock(result, 'Output before that')}${notes}`
    case 'hard-limit':
      return (
        `The command was terminated after exceeding the user's time limit (${seconds(result.durationMs)}). ` +
        `Do not re-run it unchanged.\n\n${outputBlock(result, 'Output before that')}${notes}`
      )
    case 'killed':
      return `The command was stopped by the user.\n\n${outputBlock(result, 'Output before that')}${notes}`
    case 'shell-exited':
      return (
        `The shell exited with code ${result.exitCode ?? 'unknown'} (the command ended it, e.g. with exit or exec); ` +
        `the next command starts in a new shell.\n\n${outputBlock(result, 'Output')}`
      )
  }
}
