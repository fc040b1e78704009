import type { z } from 'zod'
import type { ToolDefinition } from './types'

/** Identity helper that keeps the params type of a definition precise. */
export const defineTool = <P extends z.ZodType>(definition: ToolDefinition<P>): ToolDefinition<P> =>
  definition
