import { z } from 'zod'
import { defineTool } from './define'
import { pathParam } from './path-param'

const applyDiffParams = z
  .object({
    path: pathParam('Workspace-relative path'),
    diff: z
      .string()
      .min(1)
      .describe(
        'One or more blocks:\n<<<<<<< SEARCH\n:start_line:N\n-------\n[exact existing lines]\n=======\n[replacement]\n>>>>>>> REPLACE'
      )
  })
  .strict()

export const applyDiffTool = defineTool({
  name: 'apply_diff',
  group: 'edit',
  description: 'Edit a file with SEARCH/REPLACE blocks; SEARCH must match existing lines.',
  params: applyDiffParams,
  effect: 'edit',
  writePaths: (p) => [p.path],
  summarize: (p) => `Edit ${p.path}`
})

export type ApplyDiffParams = z.output<typeof applyDiffParams>
