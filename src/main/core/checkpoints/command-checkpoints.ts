import type { ToolPort } from '../agent/ports'
import type { ToolDefinition } from '../../../shared/tools/types'
import type { AnyToolExecutor, FullToolContext, ToolExecutor } from '../tools/types'
import type { CheckpointService } from './checkpoint-service'

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
    context: (run) => port.context(run),
    executor(name) {
      const inner = port.executor(name)
      const commandLine = deps.definition(name)?.commandLine
      if (!inner || !commandLine || !('execute' in inner)) return inner
      const command = inner as ToolExecutor<unknown, FullToolContext>
      const wrapped: ToolExecutor<unknown, FullToolContext> = {
        ...command,
        async execute(params, ctx) {
          const line = commandLine(params).command
          if (deps.isReadOnly(line)) return command.execute(params, ctx)
          const { result } = await deps.checkpoints.forWorkspace(ctx.workspace.root).aroundCommand(ctx.taskId, () => command.execute(params, ctx))
          return result
        }
      }
      return wrapped as AnyToolExecutor
    }
  }
}
