import { z } from 'zod'
import { defineTool } from './define'
import { pathParam } from './path-param'

const editParams = z
  .object({
    file_path: pathParam('Workspace-relative path'),
    old_string: z.string().describe('Exact text to replace (unique unless replace_all)'),
    new_string: z.string().describe('Replacement text'),
    replace_all: z.boolean().default(false).describe('Replace every occurrence')
  })
  .strict()

export const editTool = defineTool({
  name: 'edit',
  group: 'edit',
  description: 'Replace an exact string in a file.',
  params: editParams,
  effect: 'edit',
  optIn: true,
  writePaths: (p) => [p.file_path],
  summarize: (p) => `Edit ${p.file_path}`
})

export type EditParams = z.output<typeof editParams>
