import { mkdir, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { ChangeView } from '../../../shared/contract/approvals'
import { detectLineEnding } from '../../../shared/diff/text'
import { toChangeView } from '../ports/edit-port'
import { putBackThroughReview, type PutBackDeps } from './put-back-review'
import { writeFileAtomic } from '../fs/atomic-write'
import { decodeText, detectEncoding } from '../workspace/encoding'
import type { ProposedChange, Workspace } from '../workspace/types'
import type { FileVersionPair, WorkspaceCheckpoints } from './workspace-checkpoints'

export interface RestoreDeps extends PutBackDeps {
  checkpoints: WorkspaceCheckpoints
  workspace: Workspace
}

export interface RestoreRequest {
  taskId: string
  taskTitle: string
  mode: string
  checkpointId: string
  /** The checkpoint's label, for the review's title. */
  label: string
}

export interface RestoreSummary {
  /** Files proposed in the review (text files). */
  proposed: number
  /** Of those, files changed since Modus wrote them: shown unticked with the reason. */
  conflicts: number
  /** Binary files restored at once (not changed since, so nothing of anyone's is lost). */
  restored: string[]
  /** Files left as they are, with the reason. */
  notRestored: { path: string; reason: string }[]
  /** The review item that holds the proposals; absent when nothing needed reviewing. */
  approvalId?: string
  /** The checkpoint taken before the restore: restoring to it undoes the restore. */
  undoCheckpointId?: string
}

/**
 * Restores a task's files to a checkpoint as a review: the diff from now back to the checkpoint goes
 * through the same changeset review as an edit (per file, per hunk), so nothing is written until the
 * user accepts it. Files changed by someone else since Modus last wrote them come unticked, as
 * conflicts. A marker is taken first, so the restore itself can be undone.
 */
export async function restoreToCheckpoint(deps: RestoreDeps, request: RestoreRequest): Promise<RestoreSummary> {
  const { checkpoints, workspace } = deps
  const plan = await checkpoints.planRestore(request.taskId, request.checkpointId)
  const summary: RestoreSummary = { proposed: 0, conflicts: 0, restored: [], notRestored: [] }
  if (plan.length === 0) return summary
  summary.undoCheckpointId = (await checkpoints.mark(request.taskId, `Before restoring to “${request.label}”`)).id

  const staged: ChangeView[] = []
  for (const file of plan) {
    // A folder on the way swapped for a link since (a command's `rm -r lib && ln -s /elsewhere lib`):
    // writing or deleting there would land outside the workspace.
    if ((await workspace.resolve(file.path)).outsideWorkspace) {
      summary.notRestored.push({
        path: file.path,
        reason: `${file.path} now leads outside the workspace through a link, so it is left alone`
      })
      continue
    }
    const proposal = await asTextProposal(workspace, file)
    if (!proposal) {
      await restoreWhole(deps, request.taskId, file, summary)
      continue
    }
    const change = await workspace.changes.stage({
      taskId: request.taskId,
      toolName: 'restore_checkpoint',
      change: proposal,
      conflict: file.conflict
    })
    staged.push({ ...toChangeView(change), auto: false })
    summary.proposed++
    if (file.conflict) summary.conflicts++
  }
  if (staged.length === 0) return summary

  const { approvalId } = putBackThroughReview(deps, {
    taskId: request.taskId,
    taskTitle: request.taskTitle,
    mode: request.mode,
    how: 'restore',
    label: request.label,
    // The files go back to how they were *before* the turn the checkpoint precedes.
    summary: `Restore ${staged.length} file${staged.length === 1 ? '' : 's'} to before “${request.label}”`,
    reason:
      summary.conflicts > 0
        ? `You asked to restore files. ${summary.conflicts} changed after Modus wrote them and are unticked: tick them only to overwrite those changes.`
        : 'You asked to restore files: accept what to put back.',
    staged
  })
  summary.approvalId = approvalId
  return summary
}

/** The file as a text proposal, or null when either side is binary (or the path cannot be read as text). */
async function asTextProposal(workspace: Workspace, file: FileVersionPair): Promise<ProposedChange | null> {
  const targetEncoding = file.target ? detectEncoding(file.target) : 'utf8'
  if (targetEncoding === null) return null
  if (file.current && detectEncoding(file.current) === null) return null
  const current = await workspace.readTextIfExists(file.path).catch(() => undefined)
  if (current === undefined) return null
  const proposed = file.target ? decodeText(file.target, targetEncoding) : null
  const original = current?.text ?? null
  return {
    path: file.path,
    kind: original === null ? 'create' : proposed === null ? 'delete' : 'modify',
    original,
    proposed,
    format: {
      encoding: targetEncoding,
      eol: detectLineEnding(proposed ?? original ?? ''),
      mode: file.executable ? 0o755 : (current?.mode ?? null)
    }
  }
}

async function restoreWhole(
  deps: RestoreDeps,
  taskId: string,
  file: FileVersionPair,
  summary: RestoreSummary
): Promise<void> {
  if (file.conflict) {
    summary.notRestored.push({
      path: file.path,
      reason: `${file.conflict} (a binary file cannot be reviewed hunk by hunk)`
    })
    return
  }
  const full = join(deps.checkpoints.root, file.path)
  try {
    await mkdir(dirname(full), { recursive: true })
    await deps.checkpoints.recordWrite(taskId, full, () =>
      file.target === null
        ? rm(full, { force: true })
        : writeFileAtomic(full, file.target, file.executable ? { mode: 0o755 } : {})
    )
    summary.restored.push(file.path)
  } catch (error) {
    summary.notRestored.push({ path: file.path, reason: (error as Error).message })
  }
}
