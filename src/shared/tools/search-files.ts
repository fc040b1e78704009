import { z } from 'zod'
import { defineTool } from './define'
import { pathParam } from './path-param'

const searchFilesParams = z
  .object({
    path: pathParam('Workspace-relative directory to search'),
    regex: z.string().min(1).describe('Rust-syntax regular expression'),
    file_pattern: z.string().min(1).optional().describe("Glob filter, e.g. '*.ts'")
  })
  .strict()

export const searchFilesTool = defineTool({
  name: 'search_files',
  group: 'read',
  description: 'Regex search across files; returns matches with surrounding lines.',
  params: searchFilesParams,
  effect: 'read',
  readPaths: (p) => [p.path],
  summarize: (p) => `Search /${p.regex}/ in ${p.path}${p.file_pattern ? ` (${p.file_pattern})` : ''}`
})

export type SearchFilesParams = z.output<typeof searchFilesParams>
