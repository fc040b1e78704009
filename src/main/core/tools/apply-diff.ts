import type { ApplyDiffParams } from '../../../shared/tools/apply-diff'
import { applySearchReplace, type BlockResult } from '../../../shared/diff/search-replace'
import { failed, isFile, modification, readExistingForEdit } from './edit-support'
import type { EditToolExecutor, FileToolContext } from '../ports/tool-types'

function describe(block: BlockResult, total: number): string {
  const name = `Block ${block.index + 1} of ${total}`
  if (block.status === 'applied') {
    const moved =
      block.hint !== undefined && block.hint !== block.startLine
        ? ` (found at line ${block.startLine}, hint was ${block.hint})`
        : ''
    const reindent = block.reindented ? '; replacement re-indented to the file' : ''
    return `${name}: applied to lines ${block.startLine}-${block.endLine}${moved}${reindent}.`
  }
  return `${name} FAILED: ${block.error}`
}

export const applyDiffExecutor: EditToolExecutor<ApplyDiffParams, FileToolContext> = {
  async propose(params, ctx) {
    const file = await readExistingForEdit(ctx, params.path, 'apply_diff')
    if (!isFile(file)) return file
    const result = applySearchReplace(file.text, params.diff)
    if (result.content === null) return failed(result.formatError!)
    const total = result.blocks.length
    const notes = result.blocks.map((b) => describe(b, total))
    if (result.applied === 0) {
      return failed(
        `No SEARCH/REPLACE block of the diff applied to ${file.path.display}; nothing changed.\n\n${notes.join('\n\n')}`
      )
    }
    if (result.content === file.text) return failed(`The diff leaves ${file.path.display} unchanged.`)
    if (result.failed > 0) {
      notes.push(
        `Only ${result.applied} of ${total} blocks applied. Re-read the file before resending the failed blocks.`
      )
    }
    return { ok: true, changes: [modification(file, params.path, result.content)], notes }
  }
}
