import type { ResolvedMode } from '../../../shared/modes/schema'
import type { SandboxPlan } from '../../../shared/policy/sandbox'
import type { CommandSandbox, SandboxRequest } from '../ports/tool-types'
import type { SandboxService } from './sandbox-service'

export interface CommandSandboxDeps {
  sandbox: SandboxService
  mode: (slug: string) => ResolvedMode | undefined
  /** The workspace root, realpath-resolved. */
  workspaceRoot: (workspace: string) => Promise<string>
  /**
   * Folders no sandboxed command may read (Modus's data dir, with its secrets file); a function
   * answers per workspace (an isolated task's worktree lives in the data dir, its siblings do not show).
   */
  privateDirs?: readonly string[] | ((workspaceRoot: string) => readonly string[])
  /** Folders read-only for a workspace's commands whatever the writable roots say (an isolated task's repository). */
  readOnlyDirs?: (workspaceRoot: string) => readonly string[]
}

export interface CommandRun {
  taskId: string
  /** The tool call running the command (its card shows the command's network asks). */
  callId?: string
  mode: string
  workspace: string
  /** The policy's plan for this call's command (PolicyDecision.run). */
  commandPlan?: SandboxPlan
}

/**
 * Carries out the policy's run plan for a command, deciding nothing again: wrapped in the sandbox
 * the plan names, or unsandboxed with the line the plan gives its result (the policy asked first
 * where that matters), or, for a mode with no sandbox in a trusted workspace, null. A command that
 * comes without a plan does not run.
 */
export function createCommandSandboxes(deps: CommandSandboxDeps) {
  return async function commandSandbox(run: CommandRun, _request: SandboxRequest): Promise<CommandSandbox | null> {
    const plan = run.commandPlan
    if (!plan) throw new Error('This command came without the policy’s run plan, so nothing was run.')
    if (!plan.sandboxed) return plan.note ? { outside: plan.note } : null
    const root = await deps.workspaceRoot(run.workspace)
    const mode = deps.mode(run.mode)
    return {
      wrap: (command, shell, tty) =>
        deps.sandbox.prepare({
          taskId: run.taskId,
          callId: run.callId,
          modeSlug: run.mode,
          modeName: mode?.name ?? run.mode,
          command,
          workspaceRoot: root,
          sandbox: plan.sandbox,
          shell,
          tty,
          privateDirs: typeof deps.privateDirs === 'function' ? deps.privateDirs(root) : deps.privateDirs,
          readOnly: deps.readOnlyDirs?.(root)
        })
    }
  }
}
