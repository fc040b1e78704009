import type { z } from 'zod'
import type { ToolDefinition } from './types'

/** A user-defined tool (experiment `customTools`): offered in every mode while the flag is on. */
export function defineCustomTool<P extends z.ZodType>(spec: { name: string; description: string; params: P }): ToolDefinition<P> {
  if (!/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/.test(spec.name)) throw new Error(`Invalid custom tool name "${spec.name}"`)
  return { ...spec, group: 'always', modifiesState: true, summarize: () => `Custom tool ${spec.name}` }
}
