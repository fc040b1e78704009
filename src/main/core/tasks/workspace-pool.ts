import type { CheckpointService } from '../checkpoints'
import { createWorkspace, type Workspace } from '../workspace'
import type { WriteRecorder } from '../workspace/change-store'
import type { StagedChange } from '../workspace/types'

export interface WorkspacePoolDeps {
  checkpoints: CheckpointService
  now: () => number
  /** Every staged, accepted, rejected or reverted change of any workspace. */
  onChange: (change: StagedChange) => void
}

/** One workspace per folder, opened on first use; every write it makes is kept for the checkpoints. */
export interface WorkspacePool {
  get(root: string): Promise<Workspace>
  opened(): Workspace[]
}

export function createWorkspacePool(deps: WorkspacePoolDeps): WorkspacePool {
  const workspaces = new Map<string, Promise<Workspace>>()
  const opened: Workspace[] = []
  return {
    get(root) {
      let pending = workspaces.get(root)
      if (!pending) {
        const recordWrite: WriteRecorder = (taskId, path, write) =>
          deps.checkpoints.forWorkspace(root).recordWrite(taskId, path, write)
        pending = createWorkspace({ root, now: deps.now, recordWrite }).then((ws) => {
          opened.push(ws)
          ws.changes.subscribe(deps.onChange)
          return ws
        })
        pending.catch(() => workspaces.delete(root))
        workspaces.set(root, pending)
      }
      return pending
    },
    opened: () => opened
  }
}
