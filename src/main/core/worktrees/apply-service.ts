import type { ChangeDecision, ChangeView } from '../../../shared/contract/approvals'
import { conflictingHunks, hunksOf, planApply, type FileConflict, type FileDecision } from './apply-plan'
import { readBranchFiles, type BranchFile, type WorktreeLocation } from './apply-read'
import { writePlan } from './apply-write'

export interface ApplyResult {
  written: string[]
  conflicts: FileConflict[]
}

/** Bringing an isolated task's work back: its changes as a review, and the accepted hunks written into the main tree. */
export interface WorktreeApply {
  changes(taskId: string): Promise<ChangeView[]>
  apply(taskId: string, decisions: readonly ChangeDecision[]): Promise<ApplyResult>
}

export interface WorktreeApplyDeps {
  /** Where the task's worktree is and what it started from; null: the task is not isolated. */
  locate(taskId: string): Promise<WorktreeLocation | null>
  now?: () => number
}

/** A review change's id names its file, so a decision still finds the file after the list is read again. */
const changeIdOf = (taskId: string, path: string): string => `worktree:${taskId}:${path}`

export function createWorktreeApply(deps: WorktreeApplyDeps): WorktreeApply {
  const now = deps.now ?? Date.now
  const filesOf = async (taskId: string): Promise<BranchFile[]> => {
    const location = await deps.locate(taskId)
    if (!location) throw new Error('This task has no worktree (it ran in the main workspace).')
    return readBranchFiles(location)
  }
  return {
    async changes(taskId) {
      return (await filesOf(taskId)).map((file) => toChangeView(taskId, file, now()))
    },
    async apply(taskId, decisions) {
      const location = await deps.locate(taskId)
      if (!location) throw new Error('This task has no worktree (it ran in the main workspace).')
      const files = await readBranchFiles(location)
      const pathById = new Map(files.map((file) => [changeIdOf(taskId, file.path), file.path]))
      const chosen: FileDecision[] = decisions.map((decision) => ({
        path: pathById.get(decision.changeId) ?? decision.changeId,
        acceptedHunks: decision.acceptedHunks,
        editedContent: decision.editedContent
      }))
      const plan = planApply(files, chosen)
      const written = await writePlan(location.mainRoot, plan)
      return { written: written.written, conflicts: [...plan.conflicts, ...written.conflicts] }
    }
  }
}

function toChangeView(taskId: string, file: BranchFile, at: number): ChangeView {
  const operation = file.base === null ? 'create' : file.branch === null ? 'delete' : 'modify'
  const conflicts = file.binary ? [] : conflictingHunks(file)
  return {
    id: changeIdOf(taskId, file.path),
    taskId,
    callId: 'worktree',
    path: file.path,
    operation,
    original: file.binary ? null : file.base,
    proposed: file.binary ? null : file.branch,
    hunks: file.binary ? [] : hunksOf(file),
    status: 'proposed',
    auto: false,
    conflict: file.binary
      ? 'Binary file or link: not applied here; use "Merge branch".'
      : conflicts.length > 0
        ? `You changed this file locally where hunk(s) ${conflicts.join(', ')} change it: those are not written.`
        : undefined,
    tool: 'worktree',
    createdAt: at
  }
}
