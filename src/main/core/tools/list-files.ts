import type { ListFilesParams } from '../../../shared/tools/list-files'
import { outsideNote, workspaceErrorOutput } from './file-tool-errors'
import { textOutput, type FileToolContext, type ToolExecutor } from '../ports/tool-types'

export const LIST_FILES_LIMIT = 200

export function createListFilesExecutor(
  options: { limit?: number } = {}
): ToolExecutor<ListFilesParams, FileToolContext> {
  const limit = options.limit ?? LIST_FILES_LIMIT
  return {
    async execute(params, ctx) {
      try {
        const dir = await ctx.workspace.resolve(params.path)
        const { entries, truncated } = await ctx.workspace.list(params.path, { recursive: params.recursive, limit })
        const title = `Contents of ${dir.display}${params.recursive ? ' (recursive)' : ''}${outsideNote(dir.outsideWorkspace)}:`
        if (entries.length === 0) return textOutput(`${title}\nNo files found.`)
        const rows = entries.map((e) => `${e.path}${e.isDirectory ? '/' : ''}${e.protected ? '  (protected)' : ''}`)
        const note = truncated
          ? `\n\n(File list truncated at ${limit} entries. Use list_files on specific subdirectories to see more.)`
          : ''
        return textOutput(`${title}\n${rows.join('\n')}${note}`)
      } catch (err) {
        return workspaceErrorOutput(err)
      }
    }
  }
}

export const listFilesExecutor = createListFilesExecutor()
