import { z } from 'zod'
import { defineTool } from './define'

const updateTodoListParams = z
  .object({
    todos: z.string().describe('Whole checklist: lines "[ ] todo", "[-] in progress", "[x] done"')
  })
  .strict()

export const updateTodoListTool = defineTool({
  name: 'update_todo_list',
  group: 'always',
  description: "Replace the task's todo list.",
  params: updateTodoListParams,
  effect: 'task-control',
  summarize: () => 'Update todo list'
})

export type UpdateTodoListParams = z.output<typeof updateTodoListParams>
