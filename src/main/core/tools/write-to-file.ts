import type { WriteToFileParams } from '../../../shared/tools/write-to-file'
import { withLineEnding } from '../../../shared/diff/text'
import { failed, failedFrom, modification } from './edit-support'
import { textOutput, type EditToolExecutor, type FileToolContext } from '../ports/tool-types'

const FENCE = /^```[\w-]*\s*$/
const NUMBERED = /^\s*\d+ \| ?/

/** Undoes what models wrap file content in: a Markdown fence, or read_file's `N | ` numbering. */
export function cleanWriteContent(content: string): string {
  let lines = content.split('\n')
  if (lines.length >= 2 && FENCE.test(lines[0])) {
    lines = lines.slice(1)
    const last = lines.map((l) => l.trim()).lastIndexOf('```')
    if (last >= 0 && lines.slice(last + 1).every((l) => l.trim() === '')) lines = lines.slice(0, last).concat([''])
  }
  const nonEmpty = lines.filter((l) => l !== '')
  if (nonEmpty.length > 0 && nonEmpty.every((l) => NUMBERED.test(l))) lines = lines.map((l) => l.replace(NUMBERED, ''))
  return lines.join('\n')
}

export const writeToFileExecutor: EditToolExecutor<WriteToFileParams, FileToolContext> = {
  async propose(params, ctx) {
    try {
      const target = await ctx.workspace.resolve(params.path)
      if (target.kind === 'directory')
        return failed(`Error: '${target.display}' is a directory; write_to_file needs a file path.`)
      const content = cleanWriteContent(params.content)
      const existing = await ctx.workspace.readTextIfExists(params.path)
      if (!existing) {
        return {
          ok: true,
          changes: [{ path: params.path, kind: 'create', original: null, proposed: content }],
          notes: []
        }
      }
      const proposed = withLineEnding(content, existing.eol)
      if (proposed === existing.text) {
        return { ok: false, output: textOutput(`No change: ${target.display} already has exactly this content.`) }
      }
      return { ok: true, changes: [modification(existing, params.path, proposed)], notes: [] }
    } catch (err) {
      return failedFrom(err)
    }
  }
}
