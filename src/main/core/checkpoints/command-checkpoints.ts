import type { ToolPort } from '../ports/loop-ports'
import type { ToolDefinition } from '../../../shared/tools/types'
import type { FullToolContext, ToolExecutor } from '../ports/tool-types'
import type { CheckpointService } from './checkpoint-service'
import type { CommandCapture } from './workspace-checkpoints'

export interface CommandCheckpointDeps {
  checkpoints: CheckpointService
  /** Commands that cannot change files skip the two snapshots. */
  isReadOnly: (command: string) => boolean
  /** The definition a tool name stands for: tools whose definition gives a command line are wrapped. */
  definition: (name: string) => ToolDefinition | undefined
}

/**
 * The tool port with snapshots around each command that may write: what it created, changed or
 * deleted becomes part of the task's checkpoints. The executors themselves are untouched.
 */
export function withCommandCheckpoints(port: ToolPort, deps: CommandCheckpointDeps): ToolPort {
  return {
    // The call's id goes along, so the files a command changed can be listed under it.
    context: async (run) => ({ ...(await port.context(run)), callId: run.callId }),
    executor(name) {
      const inner = port.executor(name)
      const commandLine = deps.definition(name)?.commandLine
      if (!inner || !commandLine || !('execute' in inner)) return inner
      const command = inner as ToolExecutor<unknown, FullToolContext>
      const wrapped: ToolExecutor<unknown, FullToolContext> = {
        ...command,
        async execute(params, ctx) {
          // The run plan already says whether it only reads (the line was parsed once, by the policy).
          const readOnly = ctx.plan ? ctx.plan.readOnly : deps.isReadOnly(commandLine(params).command)
          if (readOnly) return command.execute(params, ctx)
          const { result, capture } = await deps.checkpoints
            .forWorkspace(ctx.workspace.root)
            .aroundCommand(ctx.taskId, () => command.execute(params, ctx), {
              command: commandLine(params).command,
              callId: ctx.callId
            })
          const note = captureNote(capture)
          return note ? { ...result, content: [...result.content, { type: 'text', text: `\n${note}` }] } : result
        }
      }
      return wrapped
    }
  }
}

/** What the command's checkpoint could not hold, said in its result (seen in the chat and by the model). */
function captureNote(capture: CommandCapture): string | null {
  const lines: string[] = []
  if (capture.failure) lines.push(`Checkpoint: ${capture.failure}`)
  if (capture.skipped.length > 0) {
    const shown = capture.skipped.slice(0, 5).map((file) => `${file.path} (${megabytes(file.size)})`)
    const more = capture.skipped.length > 5 ? ` and ${capture.skipped.length - 5} more` : ''
    lines.push(
      `Checkpoint: not captured, over the size limit, so restoring cannot bring back their content from before this command: ${shown.join(', ')}${more}.`
    )
  }
  return lines.length > 0 ? lines.join('\n') : null
}

const megabytes = (bytes: number): string =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`
