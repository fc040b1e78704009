import { randomUUID } from 'node:crypto'
import {
  applySelectedHunks,
  computeHunks,
  hunksReachingDisk,
  invertHunks,
  rebaseHunks,
  unifiedDiff
} from '../../../shared/diff/hunks'
import { detectLineEnding, toLf, withLineEnding, type LineEnding } from '../../../shared/diff/text'
import {
  WorkspaceError,
  type AcceptOptions,
  type AcceptOutcome,
  type ChangeStore,
  type ProposedChange,
  type RevertOutcome,
  type StagedChange,
  type TextFormat,
  type Workspace
} from './types'

export interface ChangeStoreDeps {
  workspace: Pick<Workspace, 'resolve' | 'readTextIfExists' | 'writeText' | 'deleteFile'>
  now?: () => number
  /** Every write of a change goes through this (checkpoints keep the file's previous content). */
  recordWrite?: WriteRecorder
}

/** Runs one file write for a task, free to save the file's content before and after it. */
export type WriteRecorder = <T>(taskId: string, absolutePath: string, write: () => Promise<T>) => Promise<T>

/** Applies `target` to the file: writes it (null: deletes it). */
type DiskState = string | null

export function createChangeStore(deps: ChangeStoreDeps): ChangeStore {
  const { workspace } = deps
  const now = deps.now ?? Date.now
  const changes = new Map<string, StagedChange>()
  const listeners = new Set<(change: StagedChange) => void>()

  const emit = (change: StagedChange): StagedChange => {
    change.updatedAt = now()
    for (const l of listeners) l(structuredClone(change))
    return change
  }

  const mustGet = (id: string): StagedChange => {
    const change = changes.get(id)
    if (!change) throw new WorkspaceError('not_found', `No staged change with id ${id}`)
    return change
  }

  async function currentText(path: string): Promise<DiskState> {
    return (await workspace.readTextIfExists(path))?.text ?? null
  }

  function formatOf(change: StagedChange): Partial<TextFormat> {
    return change.format ?? {}
  }

  /** The file's line ending wins over whatever the reviewer's editor produced. */
  function inFileEol(text: string, change: StagedChange): string {
    const eol: LineEnding = change.format?.eol ?? 'lf'
    return withLineEnding(toLf(text), eol)
  }

  async function recorded<T>(change: StagedChange, path: string, write: () => Promise<T>): Promise<T> {
    if (!deps.recordWrite) return write()
    return deps.recordWrite(change.taskId, (await workspace.resolve(path)).absolute, write)
  }
  // An edit approved inside the workspace must land inside, whatever was swapped for a link since.
  const writeFile = (change: StagedChange, path: string, text: string) =>
    recorded(change, path, () =>
      workspace.writeText(path, text, formatOf(change), { stayInside: !change.outsideWorkspace })
    )
  const deleteFile = (change: StagedChange, path: string) =>
    recorded(change, path, () => workspace.deleteFile(path, { stayInside: !change.outsideWorkspace }))

  /**
   * A path that was not protected when proposed but leads to a protected file now (it or a folder
   * was swapped for a link to `.git/hooks/…` since): the approval was not for that file.
   */
  async function newlyProtected(change: StagedChange): Promise<string | null> {
    if (change.protected) return null
    for (const path of [change.path, ...(change.moveTo ? [change.moveTo] : [])]) {
      const now = await workspace.resolve(path)
      if (now.protected)
        return `Not written: ${path} now leads to the protected path ${now.display} (a folder or the file was replaced by a link since the change was proposed). Nothing was changed.`
    }
    return null
  }

  /** Writes the accepted text; resolves with the real path written (null: only deleted). */
  async function writeTarget(change: StagedChange, target: DiskState): Promise<string | null> {
    if (change.kind === 'move') {
      const written = target !== null ? await writeFile(change, change.moveTo!, target) : null
      await deleteFile(change, change.path)
      return written
    }
    if (target === null) {
      await deleteFile(change, change.path)
      return null
    }
    return writeFile(change, change.path, target)
  }

  /** What to write given the review decision, relative to the proposal's original. */
  function reviewedTarget(
    change: StagedChange,
    options: AcceptOptions
  ): { target: DiskState; hunkIds: string[] } | null {
    const allIds = change.hunks.map((h) => h.id)
    if (options.editedContent !== undefined) {
      // The reviewer sends an edited text with its rejected hunks already left out: count from the text.
      const hunkIds =
        change.original === null
          ? allIds
          : hunksReachingDisk(toLf(change.original), change.hunks, toLf(options.editedContent))
      return { target: inFileEol(options.editedContent, change), hunkIds }
    }
    // An explicit empty selection declines the change whatever its kind (a created or deleted file too).
    if (options.hunkIds !== undefined && options.hunkIds.length === 0) return null
    if (change.proposed === null || change.original === null || options.hunkIds === undefined) {
      return { target: change.proposed, hunkIds: allIds }
    }
    const selected = new Set(options.hunkIds.filter((id) => allIds.includes(id)))
    if (selected.size === 0) return null
    if (selected.size === allIds.length) return { target: change.proposed, hunkIds: allIds }
    return {
      target: inFileEol(applySelectedHunks(change.original, change.hunks, selected), change),
      hunkIds: [...selected]
    }
  }

  /**
   * Brings `target` (computed against `base`) onto what is on disk now: identical → as is; otherwise
   * the base→target hunks are re-applied onto the current text, or it is a conflict.
   */
  function rebase(
    base: DiskState,
    target: DiskState,
    current: DiskState,
    change: StagedChange
  ): { ok: true; text: DiskState; rebased: boolean } | { ok: false; reason: string } {
    if (current === base) return { ok: true, text: target, rebased: false }
    if (current === target) return { ok: true, text: target, rebased: true }
    if (base === null || target === null || current === null) {
      const what = current === null ? 'was deleted' : base === null ? 'was created by someone else' : 'changed'
      return { ok: false, reason: `${change.displayPath} ${what} since the change was proposed` }
    }
    const result = rebaseHunks(current, computeHunks(base, target))
    if (!result.ok)
      return {
        ok: false,
        reason: `${change.displayPath} changed on disk since the change was proposed, and hunks ${result.conflicts.join(', ')} no longer apply`
      }
    return { ok: true, text: inFileEol(result.content, change), rebased: true }
  }

  function conflict(change: StagedChange, reason: string): AcceptOutcome {
    change.status = 'conflict'
    change.conflict = reason
    emit(change)
    return {
      status: 'conflict',
      change: structuredClone(change),
      message: `Not written: ${reason}. Nothing was overwritten. Re-read the file and propose the change again.`
    }
  }

  return {
    async stage(input) {
      const source = await workspace.resolve(input.change.path)
      const dest = input.change.moveTo ? await workspace.resolve(input.change.moveTo) : undefined
      const proposal = structuredClone(input.change)
      if (proposal.original !== null && proposal.format?.eol === undefined) {
        proposal.format = { ...proposal.format, eol: detectLineEnding(proposal.original) }
      }
      const change: StagedChange = {
        ...proposal,
        id: input.id && !changes.has(input.id) ? input.id : randomUUID(),
        taskId: input.taskId,
        toolName: input.toolName,
        toolUseId: input.toolUseId,
        createdAt: now(),
        updatedAt: now(),
        displayPath: source.display,
        displayMoveTo: dest?.display,
        outsideWorkspace: source.outsideWorkspace || Boolean(dest?.outsideWorkspace),
        protected: source.protected || Boolean(dest?.protected),
        hunks: computeHunks(input.change.original ?? '', input.change.proposed ?? ''),
        status: 'pending',
        conflict: input.conflict,
        ...(input.revertOf && { revertOf: input.revertOf })
      }
      changes.set(change.id, change)
      emit(change)
      return structuredClone(change)
    },

    get: (id) => {
      const c = changes.get(id)
      return c && structuredClone(c)
    },

    list(filter = {}) {
      return [...changes.values()]
        .filter(
          (c) =>
            (filter.taskId === undefined || c.taskId === filter.taskId) &&
            (filter.status === undefined || c.status === filter.status)
        )
        .map((c) => structuredClone(c))
    },

    async accept(id, options = {}) {
      const change = mustGet(id)
      if (change.status !== 'pending' && change.status !== 'conflict') {
        throw new WorkspaceError('io', `Change ${id} is ${change.status}; only pending changes can be accepted`)
      }
      const reviewed = reviewedTarget(change, options)
      if (!reviewed) {
        change.status = 'rejected'
        change.rejectReason = 'no hunk selected'
        emit(change)
        return {
          status: 'nothing_selected',
          change: structuredClone(change),
          message: `The user accepted none of the hunks for ${change.displayPath}; nothing was written.`
        }
      }
      const current = await currentText(change.path)
      if (change.kind === 'move' && (await currentText(change.moveTo!)) !== null) {
        return conflict(change, `the move target ${change.displayMoveTo} already exists`)
      }
      const merged = rebase(change.original, reviewed.target, current, change)
      if (!merged.ok) return conflict(change, merged.reason)
      const redirected = await newlyProtected(change)
      if (redirected) return conflict(change, redirected)
      let writtenTo: string | null
      try {
        writtenTo = await writeTarget(change, merged.text)
      } catch (error) {
        if (error instanceof WorkspaceError && error.code === 'outside_workspace')
          return conflict(change, error.message)
        throw error
      }
      change.status = 'accepted'
      change.conflict = undefined
      change.written = merged.text
      change.acceptedHunkIds = reviewed.hunkIds
      if (
        options.editedContent !== undefined &&
        change.proposed !== null &&
        toLf(options.editedContent) !== toLf(change.proposed)
      ) {
        change.userEdits = unifiedDiff(change.displayPath, change.proposed, options.editedContent)
      }
      emit(change)
      const undone = change.revertOf ? changes.get(change.revertOf) : undefined
      if (undone?.status === 'accepted') {
        undone.status = 'reverted'
        emit(undone)
      }
      return {
        status: merged.rebased ? 'reapplied' : 'applied',
        change: structuredClone(change),
        message: acceptMessage(change, merged.rebased, writtenTo)
      }
    },

    reject(id, reason) {
      const change = mustGet(id)
      if (change.status !== 'pending' && change.status !== 'conflict') {
        throw new WorkspaceError('io', `Change ${id} is ${change.status}; only pending changes can be rejected`)
      }
      change.status = 'rejected'
      change.rejectReason = reason
      emit(change)
      return structuredClone(change)
    },

    async drift(id) {
      const change = mustGet(id)
      if (change.status !== 'pending') return null
      const current = await currentText(change.path)
      if (current === change.original) return null
      const merged = rebase(change.original, change.proposed, current, change)
      return merged.ok
        ? {
            conflict: false,
            message: `${change.displayPath} changed on disk since the change was proposed; accepting merges the change onto it`
          }
        : { conflict: true, message: merged.reason }
    },

    async planRevert(id) {
      const change = mustGet(id)
      if (change.status !== 'accepted')
        throw new WorkspaceError('io', `Change ${id} is ${change.status}; only accepted changes can be reverted`)
      const planned = await revertTarget(change)
      if (!planned.ok) return planned
      const proposal: ProposedChange =
        change.kind === 'move'
          ? {
              path: change.moveTo!,
              moveTo: change.path,
              kind: 'move',
              original: planned.current,
              proposed: planned.restored,
              format: change.format
            }
          : {
              path: change.path,
              kind: planned.current === null ? 'create' : planned.restored === null ? 'delete' : 'modify',
              original: planned.current,
              proposed: planned.restored,
              format: change.format
            }
      return { ok: true, proposal }
    },

    async revert(id): Promise<RevertOutcome> {
      const change = mustGet(id)
      if (change.status !== 'accepted')
        throw new WorkspaceError('io', `Change ${id} is ${change.status}; only accepted changes can be reverted`)
      const planned = await revertTarget(change)
      if (!planned.ok) return revertConflict(change, planned.reason)
      const restored = planned.restored
      if (change.kind === 'move') {
        if (restored !== null) await writeFile(change, change.path, restored)
        await deleteFile(change, change.moveTo!)
      } else if (restored === null) {
        await deleteFile(change, change.path)
      } else {
        await writeFile(change, change.path, restored)
      }
      change.status = 'reverted'
      emit(change)
      return {
        status: 'reverted',
        change: structuredClone(change),
        message: `Reverted the change to ${change.displayPath}.`
      }
    },

    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }

  /** What the file holds now and what undoing the change would leave: the change's hunks inverted onto it. */
  async function revertTarget(
    change: StagedChange
  ): Promise<{ ok: true; current: DiskState; restored: DiskState } | { ok: false; reason: string }> {
    const written = change.written ?? null
    const current = await currentText(change.kind === 'move' ? change.moveTo! : change.path)
    if (current === written) return { ok: true, current, restored: change.original }
    if (current === null || written === null || change.original === null) {
      return { ok: false, reason: `${change.displayPath} changed since the change was accepted` }
    }
    const result = rebaseHunks(current, invertHunks(computeHunks(change.original, written)))
    if (!result.ok)
      return {
        ok: false,
        reason: `${change.displayPath} changed since the change was accepted and hunks ${result.conflicts.join(', ')} cannot be undone`
      }
    return { ok: true, current, restored: inFileEol(result.content, change) }
  }

  function revertConflict(change: StagedChange, reason: string): RevertOutcome {
    change.conflict = reason
    emit(change)
    return {
      status: 'conflict',
      change: structuredClone(change),
      message: `Not reverted: ${reason}. Nothing was overwritten.`
    }
  }
}

function acceptMessage(change: StagedChange, rebased: boolean, writtenTo: string | null): string {
  const verb = { create: 'Created', modify: 'Updated', delete: 'Deleted', move: 'Moved' }[change.kind]
  const target = change.kind === 'move' ? `${change.displayPath} → ${change.displayMoveTo}` : change.displayPath
  const shown = change.kind === 'move' ? change.displayMoveTo : change.displayPath
  // Through a link, the file written is not the one named: say which it was.
  const where =
    writtenTo !== null && shown !== undefined && !writtenTo.endsWith(`/${shown}`) && writtenTo !== shown
      ? ` (written to ${writtenTo})`
      : ''
  const parts = [`${verb} ${target}${where}.`]
  const total = change.hunks.length
  const accepted = change.acceptedHunkIds?.length ?? total
  if (!change.userEdits && accepted < total) {
    const rejected = change.hunks.filter((h) => !change.acceptedHunkIds?.includes(h.id))
    const where = rejected.map((h) => `lines ${h.oldStart}-${h.oldStart + Math.max(0, h.oldLines - 1)}`).join(', ')
    parts.push(
      `The user accepted ${accepted} of ${total} hunks; the rejected ones (original ${where}) were left unchanged.`
    )
  }
  if (rebased)
    parts.push('The file had changed on disk since your proposal; your change was merged onto the current version.')
  if (change.userEdits) {
    parts.push(
      'The user edited your proposal before accepting it. What they changed, from your proposal to what was written:',
      '```diff\n' + change.userEdits.trimEnd() + '\n```',
      'Take their edits into account; the file now holds their version.'
    )
  }
  return parts.join('\n')
}
