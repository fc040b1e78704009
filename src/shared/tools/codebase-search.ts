import { z } from 'zod'
import { defineTool } from './define'
import { hasControlCharacter } from './path-param'

const codebaseSearchParams = z
  .object({
    query: z.string().trim().min(1).max(2000).describe("What to find, in words or code (reuse the user's wording)"),
    // Optional, so an empty string means the whole workspace (models send "" for an unused parameter).
    path: z
      .string()
      .refine((path) => !hasControlCharacter(path), 'must not contain a NUL or another control character')
      .nullish()
      .describe('Workspace-relative directory to limit the search to (optional)')
  })
  .strict()

export const codebaseSearchTool = defineTool({
  name: 'codebase_search',
  group: 'read',
  description:
    'Find code by meaning across the workspace index (semantic when embeddings are configured, lexical BM25 always). Returns the best matching chunks with path, line range and score. Use it first to locate code you do not know the name of.',
  params: codebaseSearchParams,
  effect: 'read',
  readPaths: (p) => [p.path || '.'],
  summarize: (p) => `Search the codebase for "${p.query}"${p.path ? ` in ${p.path}` : ''}`
})

export type CodebaseSearchParams = z.output<typeof codebaseSearchParams>
