import type { ApplyPatchParams } from '../../../shared/tools/apply-patch'
import { applyPatch, patchPaths } from '../../../shared/diff/patch-apply'
import { parsePatch } from '../../../shared/diff/patch-parse'
import { withLineEnding } from '../../../shared/diff/text'
import type { ProposedChange, TextFile } from '../workspace/types'
import { failed, failedFrom, modification } from './edit-support'
import type { EditToolExecutor, FileToolContext } from '../ports/tool-types'

export const applyPatchExecutor: EditToolExecutor<ApplyPatchParams, FileToolContext> = {
  async propose(params, ctx) {
    let paths: string[]
    try {
      paths = patchPaths(parsePatch(params.patch))
    } catch (err) {
      return failed(`Error: invalid patch: ${(err as Error).message}`)
    }
    const files = new Map<string, TextFile | null>()
    try {
      for (const path of paths) files.set(path, await ctx.workspace.readTextIfExists(path))
    } catch (err) {
      return failedFrom(err)
    }
    let computed
    try {
      computed = applyPatch(params.patch, (path) => files.get(path)?.text ?? null)
    } catch (err) {
      return failed(`Error: ${(err as Error).message}\nNothing was changed; fix the patch and resend it whole.`)
    }
    const changes: ProposedChange[] = []
    const notes: string[] = []
    for (const change of computed) {
      const file = files.get(change.path) ?? null
      if (change.type === 'add') {
        if (file) {
          changes.push(modification(file, change.path, withLineEnding(change.content, file.eol)))
          notes.push(`${change.path} already existed; "Add File" replaces its content.`)
        } else {
          changes.push({ path: change.path, kind: 'create', original: null, proposed: change.content })
        }
      } else if (change.type === 'delete') {
        changes.push({
          path: change.path,
          kind: 'delete',
          original: file!.text,
          proposed: null,
          format: formatOf(file!)
        })
      } else {
        const proposed = withLineEnding(keepFinalNewline(file!.text, change.content), file!.eol)
        if (change.movePath) {
          changes.push({
            path: change.path,
            kind: 'move',
            moveTo: change.movePath,
            original: file!.text,
            proposed,
            format: formatOf(file!)
          })
        } else {
          changes.push(modification(file!, change.path, proposed))
        }
      }
    }
    return { ok: true, changes, notes }
  }
}

/** The engine ends every updated file with a newline; a file that had none keeps it that way. */
const keepFinalNewline = (original: string, updated: string): string =>
  original !== '' && !original.endsWith('\n') && updated.endsWith('\n') ? updated.slice(0, -1) : updated

const formatOf = (file: TextFile) => ({ encoding: file.encoding, eol: file.eol, mode: file.mode })
