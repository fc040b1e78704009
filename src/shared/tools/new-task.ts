import { z } from 'zod'
import { defineTool } from './define'

const newTaskParams = z
  .object({
    mode: z.string().min(1).describe('Mode slug for the subtask'),
    message: z.string().min(1).describe('Complete instructions for the subtask'),
    todos: z.string().optional().describe('Initial markdown checklist')
  })
  .strict()

export const newTaskTool = defineTool({
  name: 'new_task',
  group: 'modes',
  description: 'Delegate a subtask to a mode. Must be the only tool call in its message.',
  params: newTaskParams,
  effect: 'task-control',
  approvalToggle: 'subtasks',
  lastInMessage: true,
  summarize: (p) => `New ${p.mode} task`
})

export type NewTaskParams = z.output<typeof newTaskParams>
