import type { z } from 'zod'
import type { ToolDefinition } from './types'

/**
 * A user-defined tool (experiment `customTools`): offered in every mode while the flag is on. It
 * runs the user's own code, so the policy judges it as a command whose line it cannot see: it asks.
 */
export function defineCustomTool<P extends z.ZodType>(spec: {
  name: string
  description: string
  params: P
}): ToolDefinition<P> {
  if (!/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/.test(spec.name)) throw new Error(`Invalid custom tool name "${spec.name}"`)
  return { ...spec, effect: 'command', group: 'always', summarize: () => `Custom tool ${spec.name}` }
}
