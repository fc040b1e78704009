import { z } from 'zod'
import { defineTool } from './define'
import { pathParam } from './path-param'

const listFilesParams = z
  .object({
    path: pathParam('Workspace-relative directory'),
    recursive: z.boolean().default(false).describe('List subdirectories too')
  })
  .strict()

export const listFilesTool = defineTool({
  name: 'list_files',
  group: 'read',
  description: 'List files and directories in a directory (ignored paths hidden).',
  params: listFilesParams,
  effect: 'read',
  readPaths: (p) => [p.path],
  summarize: (p) => `List ${p.path}${p.recursive ? ' (recursive)' : ''}`
})

export type ListFilesParams = z.output<typeof listFilesParams>
