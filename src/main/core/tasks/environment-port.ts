import type { Workspace } from '../workspace/types'
import type { EnvironmentPort } from '../ports/loop-ports'

const FIRST_TURN_LISTING_LIMIT = 200

export interface EnvironmentPortDeps {
  workspace: (root: string) => Promise<Workspace>
  /** Running and recent commands of a task, from the terminal service; empty when none. */
  terminalSummary?: (taskId: string) => string
  disposeTask?: (taskId: string) => Promise<void>
  endRun?: (taskId: string) => Promise<void>
}

/** What the environment details need: a first-turn file listing and the task's terminal state. */
export function createEnvironmentPort(deps: EnvironmentPortDeps): EnvironmentPort {
  return {
    async listWorkspace(root) {
      const workspace = await deps.workspace(root)
      const listing = await workspace.list('.', { recursive: true, limit: FIRST_TURN_LISTING_LIMIT })
      const lines = listing.entries.map((entry) => (entry.isDirectory ? `${entry.path}/` : entry.path))
      if (listing.truncated) lines.push(`(first ${FIRST_TURN_LISTING_LIMIT} entries; use list_files for more)`)
      return lines.join('\n')
    },
    terminalSummary: (taskId) => deps.terminalSummary?.(taskId) ?? '',
    disposeTask: deps.disposeTask,
    endRun: deps.endRun
  }
}
