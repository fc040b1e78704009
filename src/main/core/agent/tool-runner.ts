import type { ToolContext, ToolExecutor } from '../tools/types'
import type { Workspace } from '../workspace/types'
import type { ToolRunContext, ToolRunner } from './ports'

export interface ToolRunnerDeps {
  executors: readonly ToolExecutor<never, never>[]
  workspace: (root: string) => Promise<Workspace>
  /** Extra services a tool needs (the terminal for execute_command), added to its context. */
  extraContext?: (ctx: ToolRunContext) => Record<string, unknown>
}

/** Runs the act-at-once tools (read, list, search, commands) by name, one registry, no switch. */
export function createToolRunner(deps: ToolRunnerDeps): ToolRunner {
  const byName = new Map(deps.executors.map((executor) => [executor.name, executor as unknown as ToolExecutor]))
  return {
    has: (name) => byName.has(name),
    async run(name, params, ctx) {
      const executor = byName.get(name)
      if (!executor) throw new Error(`No executor for ${name}`)
      const context: ToolContext = {
        taskId: ctx.taskId,
        signal: ctx.signal,
        modelSupportsImages: ctx.modelSupportsImages,
        workspace: await deps.workspace(ctx.workspace),
        ...(deps.extraContext?.(ctx) ?? {})
      }
      return executor.execute(params, context)
    }
  }
}
