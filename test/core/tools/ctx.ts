import type { FileToolContext } from '../../../src/main/core/ports/tool-types'
import type { Workspace } from '../../../src/main/core/workspace'

export const ctxFor = (workspace: Workspace, modelSupportsImages = false): FileToolContext => ({
  taskId: 'task-test',
  signal: new AbortController().signal,
  modelSupportsImages,
  workspace
})

export const textOf = (output: { content: Array<{ type: string; text?: string }> }): string =>
  output.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
