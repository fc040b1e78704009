import { z } from 'zod'
import { defineTool } from './define'

const attemptCompletionParams = z
  .object({
    result: z.string().min(1).describe('Final result; no question at the end')
  })
  .strict()

export const attemptCompletionTool = defineTool({
  name: 'attempt_completion',
  group: 'always',
  description: 'Present the result once the task is done and every tool call has succeeded.',
  params: attemptCompletionParams,
  effect: 'task-control',
  answeredByUserMessage: true,
  summarize: () => 'Complete the task'
})

export type AttemptCompletionParams = z.output<typeof attemptCompletionParams>
