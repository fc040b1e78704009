import { workspaceErrorOutput } from '../../../src/main/core/tools/file-tool-errors'
import { textOutput, type FileToolContext, type ToolExecutor } from '../../../src/main/core/ports/tool-types'
import type { CountLinesParams } from './count-lines'

/** The executor of count_lines (what `src/main/core/tools/<tool>.ts` holds). */
export const countLinesExecutor: ToolExecutor<CountLinesParams, FileToolContext> = {
  async execute(params, ctx) {
    try {
      const file = await ctx.workspace.readText(params.path)
      const lines = file.text === '' ? 0 : file.text.replace(/\r?\n$/, '').split(/\r?\n/).length
      return textOutput(`${file.path.display} has ${lines} line${lines === 1 ? '' : 's'}.`)
    } catch (error) {
      return workspaceErrorOutput(error)
    }
  }
}
