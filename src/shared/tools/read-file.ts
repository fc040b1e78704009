import { z } from 'zod'
import { defineTool } from './define'
import { pathParam } from './path-param'

const indentationParams = z
  .object({
    anchor_line: z.number().int().min(1).optional().describe('Line to centre on (default: offset)'),
    max_levels: z.number().int().min(0).optional().describe('Parent levels to include; 0 = all'),
    include_siblings: z.boolean().optional().describe('Include sibling blocks at the same level'),
    include_header: z.boolean().optional().describe('Include comment lines above the block'),
    max_lines: z.number().int().min(1).optional().describe('Cap on returned lines')
  })
  .strict()

const readFileParams = z
  .object({
    path: pathParam('Workspace-relative path'),
    mode: z
      .enum(['slice', 'indentation'])
      .optional()
      .describe('slice (default): lines offset..offset+limit; indentation: the code block around anchor_line'),
    offset: z.number().int().min(1).optional().describe('1-based first line (default 1)'),
    limit: z.number().int().min(1).optional().describe('Max lines (default 2000)'),
    indentation: indentationParams.optional()
  })
  .strict()

export const readFileTool = defineTool({
  name: 'read_file',
  group: 'read',
  description:
    'Read one file with line numbers. For several files, make parallel calls. Use offset/limit for large files.',
  params: readFileParams,
  effect: 'read',
  readPaths: (p) => [p.path],
  summarize: (p) => `Read ${p.path}${p.offset ? ` from line ${p.offset}` : ''}`
})

export type ReadFileParams = z.output<typeof readFileParams>
