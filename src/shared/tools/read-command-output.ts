import { z } from 'zod'
import { defineTool } from './define'

const readCommandOutputParams = z
  .object({
    artifact_id: z.string().min(1).describe('Artifact ID from execute_command'),
    search: z.string().min(1).optional().describe('Case-insensitive regex; returns matching lines'),
    offset: z.number().int().min(0).optional().describe('Byte offset (default 0)'),
    limit: z.number().int().min(1).optional().describe('Max bytes (default 40000)')
  })
  .strict()

export const readCommandOutputTool = defineTool({
  name: 'read_command_output',
  group: 'command',
  description: "Page or search a command's saved full output.",
  params: readCommandOutputParams,
  effect: 'read',
  // Only the task's own saved output: no workspace path, so no approval.
  readPaths: () => [],
  summarize: (p) => `Read output ${p.artifact_id}${p.search ? ` /${p.search}/` : ''}`
})

export type ReadCommandOutputParams = z.output<typeof readCommandOutputParams>
