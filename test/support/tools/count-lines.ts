import { z } from 'zod'
import { defineTool } from '../../../src/shared/tools/define'

/**
 * A tool added the way CONTRIBUTING in the README says: this file is its definition (what
 * `src/shared/tools/<tool>.ts` holds), `count-lines-executor.ts` its executor.
 */
const countLinesParams = z
  .object({
    path: z.string().min(1).describe('Workspace-relative path of the file')
  })
  .strict()

export const countLinesTool = defineTool({
  name: 'count_lines',
  group: 'read',
  description: 'Count the lines of one file.',
  params: countLinesParams,
  effect: 'read',
  readPaths: (p) => [p.path],
  summarize: (p) => `Count lines of ${p.path}`
})

export type CountLinesParams = z.output<typeof countLinesParams>
