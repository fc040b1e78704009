import type { ChangeView } from '../../../shared/contract/approvals'
import type { ChangeStore, StagedChange, Workspace } from '../workspace/types'
import type { EditPort } from './loop-ports'

export interface EditPortDeps {
  workspace: (root: string) => Promise<Workspace>
  /** Every workspace opened so far, to find a task's changes. */
  openWorkspaces: () => Workspace[]
}

/** Edit tools propose; the workspace's ChangeStore stages, writes accepted hunks and reverts. */
export function createEditPort(deps: EditPortDeps): EditPort & { view(change: StagedChange): ChangeView } {
  const storeOf = new Map<string, ChangeStore>()
  const autoApplied = new Set<string>()
  const view = (change: StagedChange): ChangeView => ({ ...toChangeView(change), auto: autoApplied.has(change.id) })
  const findStore = (changeId: string): ChangeStore => {
    const known = storeOf.get(changeId)
    if (known) return known
    for (const workspace of deps.openWorkspaces()) {
      if (workspace.changes.get(changeId)) {
        storeOf.set(changeId, workspace.changes)
        return workspace.changes
      }
    }
    throw new Error(`No change with id ${changeId}`)
  }
  return {
    view,
    async stage(proposed, ctx) {
      const workspace = await deps.workspace(ctx.workspace)
      const changes: ChangeView[] = []
      for (const [index, change] of proposed.entries()) {
        const id = ctx.reuseIds?.[index]
        const staged = await workspace.changes.stage({
          taskId: ctx.taskId,
          toolName: ctx.toolName,
          toolUseId: ctx.callId,
          change,
          id
        })
        storeOf.set(staged.id, workspace.changes)
        changes.push(toChangeView(staged))
      }
      return changes
    },
    async accept(changeId, decision, auto) {
      if (auto) autoApplied.add(changeId)
      const outcome = await findStore(changeId).accept(changeId, {
        hunkIds: decision.acceptedHunks,
        editedContent: decision.editedContent
      })
      return {
        change: view(outcome.change),
        text: outcome.message,
        // Declining every hunk is the user's choice, not a failed edit: it does not count as a mistake.
        ok: outcome.status !== 'conflict'
      }
    },
    async reject(changeId) {
      return view(findStore(changeId).reject(changeId))
    },
    list(taskId) {
      return deps
        .openWorkspaces()
        .flatMap((workspace) => workspace.changes.list({ taskId }))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(view)
    },
    drift: (changeId) => findStore(changeId).drift(changeId),
    async stageRevert(taskId, changeId) {
      const store = findStore(changeId)
      const change = store.get(changeId)
      if (!change || change.taskId !== taskId) throw new Error(`Task ${taskId} has no change ${changeId}`)
      const planned = await store.planRevert(changeId)
      if (!planned.ok) throw new Error(`Not reverted: ${planned.reason}. Nothing was overwritten.`)
      const staged = await store.stage({
        taskId,
        toolName: 'revert_change',
        change: planned.proposal,
        revertOf: changeId
      })
      storeOf.set(staged.id, store)
      return view(staged)
    }
  }
}

export function toChangeView(change: StagedChange): ChangeView {
  return {
    id: change.id,
    taskId: change.taskId,
    callId: change.toolUseId ?? '',
    path: change.displayPath,
    operation: change.kind,
    newPath: change.displayMoveTo,
    original: change.original,
    proposed: change.proposed,
    hunks: change.hunks.map((hunk) => ({ ...hunk })),
    status: statusOf(change),
    auto: false,
    conflict: change.conflict,
    ...(change.status === 'accepted' && {
      acceptedHunks: change.acceptedHunkIds?.length ?? change.hunks.length,
      editedByUser: Boolean(change.userEdits),
      written: change.written ?? null
    }),
    ...(change.status === 'reverted' && change.written !== undefined && { written: change.written }),
    tool: change.toolName,
    createdAt: change.createdAt
  }
}

function statusOf(change: StagedChange): ChangeView['status'] {
  switch (change.status) {
    case 'pending':
      return 'proposed'
    case 'accepted':
      return change.acceptedHunkIds && change.acceptedHunkIds.length < change.hunks.length
        ? 'partially-applied'
        : 'applied'
    case 'rejected':
      return 'rejected'
    case 'reverted':
      return 'reverted'
    case 'conflict':
      return 'failed'
  }
}
