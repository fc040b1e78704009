import type { ResolvedMode } from '../../../shared/modes/schema'
import { effectiveSandbox, outsideSandbox } from '../../../shared/policy/sandbox'
import { sandboxUnavailableLine } from '../../../shared/sandbox/status'
import type { CommandSandbox, SandboxRequest } from '../tools/types'
import type { SandboxService } from './sandbox-service'

export interface CommandSandboxDeps {
  sandbox: SandboxService
  mode: (slug: string) => ResolvedMode | undefined
  trusted: (workspace: string) => boolean
  /** The workspace root, realpath-resolved. */
  workspaceRoot: (workspace: string) => Promise<string>
}

export interface CommandRun {
  taskId: string
  /** The tool call running the command (its card shows the command's network asks). */
  callId?: string
  mode: string
  workspace: string
}

/**
 * How a command of a run's mode runs: wrapped in the sandbox; outside it (the policy asked first,
 * with the same reason); unsandboxed because the sandbox cannot start (asked too); or, for a mode
 * with no sandbox, null.
 */
export function createCommandSandboxes(deps: CommandSandboxDeps) {
  return async function commandSandbox(run: CommandRun, request: SandboxRequest): Promise<CommandSandbox | null> {
    const mode = deps.mode(run.mode)
    const setting = mode ? effectiveSandbox(mode, deps.trusted(run.workspace)) : null
    if (!mode || !setting) return null
    const status = await deps.sandbox.status()
    if (!status.available) return { unavailable: sandboxUnavailableLine(status) + '.' }
    const outside = outsideSandbox(mode, request.command, request.outsideSandbox)
    if (outside) return { outside: `It ran outside the sandbox after approval because ${outside.why}.` }
    const root = await deps.workspaceRoot(run.workspace)
    return {
      wrap: (command, shell) =>
        deps.sandbox.prepare({ taskId: run.taskId, callId: run.callId, modeSlug: mode.slug, modeName: mode.name, command, workspaceRoot: root, sandbox: setting, shell })
    }
  }
}
