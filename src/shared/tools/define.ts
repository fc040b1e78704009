import type { z } from 'zod'
import type { ToolDefinition, ToolEffect } from './types'

/** Identity helper that keeps the name and params types of a definition precise. */
export const defineTool = <const N extends string, P extends z.ZodType, const E extends ToolEffect>(
  definition: ToolDefinition<P, N, E>
): ToolDefinition<P, N, E> => definition
