import { z } from 'zod'
import { defineTool } from './define'

const newTaskParams = z
  .object({
    mode: z.string().min(1).describe('Mode slug for the subtask'),
    message: z.string().min(1).describe('Complete instructions for the subtask'),
    todos: z.string().optional().describe('Initial markdown checklist'),
    isolated: z
      .boolean()
      .optional()
      .describe(
        "Run in its own git worktree and branch from HEAD, apart from the user's tree; the result names the branch"
      )
  })
  .strict()

export const newTaskTool = defineTool({
  name: 'new_task',
  group: 'modes',
  description:
    'Delegate a subtask to a mode. Must be the last tool call in its message; several isolated ones may end it together and run in parallel.',
  params: newTaskParams,
  effect: 'task-control',
  approvalToggle: 'subtasks',
  lastInMessage: true,
  summarize: (p) => (p.isolated ? `New ${p.mode} task in its own worktree` : `New ${p.mode} task`)
})

export type NewTaskParams = z.output<typeof newTaskParams>
