import { z } from 'zod'
import { defineTool } from './define'
import { pathParam } from './path-param'

const writeToFileParams = z
  .object({
    path: pathParam('Workspace-relative path'),
    content: z.string().describe('Complete new file content')
  })
  .strict()

export const writeToFileTool = defineTool({
  name: 'write_to_file',
  group: 'edit',
  description: 'Create a file or replace its whole content. Prefer targeted edits for existing files.',
  params: writeToFileParams,
  effect: 'edit',
  writePaths: (p) => [p.path],
  summarize: (p) => `Write ${p.path}`
})

export type WriteToFileParams = z.output<typeof writeToFileParams>
