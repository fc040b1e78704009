import type { ToolDefinition } from './types'
import { readFileTool } from './read-file'
import { listFilesTool } from './list-files'
import { searchFilesTool } from './search-files'
import { listCodeDefinitionNamesTool } from './list-code-definition-names'
import { codebaseSearchTool } from './codebase-search'
import { writeToFileTool } from './write-to-file'
import { applyDiffTool } from './apply-diff'
import { editTool } from './edit'
import { applyPatchTool } from './apply-patch'
import { executeCommandTool } from './execute-command'
import { readCommandOutputTool } from './read-command-output'
import { browserActionTool } from './browser-action'
import { askFollowupQuestionTool } from './ask-followup-question'
import { attemptCompletionTool } from './attempt-completion'
import { switchModeTool } from './switch-mode'
import { newTaskTool } from './new-task'
import { updateTodoListTool } from './update-todo-list'
import { useMcpToolTool } from './use-mcp-tool'
import { searchMcpToolsTool } from './search-mcp-tools'
import { accessMcpResourceTool } from './access-mcp-resource'
import { lookupTable } from '../lookup-table'

/** Every built-in tool, in the order the model is offered them. Adding a tool = one line here. */
export const builtInTools = [
  readFileTool,
  listFilesTool,
  searchFilesTool,
  listCodeDefinitionNamesTool,
  codebaseSearchTool,
  writeToFileTool,
  applyDiffTool,
  editTool,
  applyPatchTool,
  executeCommandTool,
  readCommandOutputTool,
  browserActionTool,
  askFollowupQuestionTool,
  attemptCompletionTool,
  switchModeTool,
  newTaskTool,
  updateTodoListTool,
  searchMcpToolsTool,
  useMcpToolTool,
  accessMcpResourceTool
] as const satisfies readonly ToolDefinition[]

/** The name of a built-in tool: the key of the core's executor table. */
export type ToolName = (typeof builtInTools)[number]['name']

export const builtInToolNames: readonly ToolName[] = builtInTools.map((tool) => tool.name)

const toolsByName: ReadonlyMap<string, ToolDefinition> = new Map(
  builtInTools.map((tool): [string, ToolDefinition] => [tool.name, tool])
)

/** Names some models are trained on; resolved before validation, the model keeps seeing its name. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = lookupTable({
  write_file: 'write_to_file',
  search_and_replace: 'edit'
})

export const resolveToolAlias = (name: string): string =>
  Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : name

/** The built-in definition for a name (aliases resolved), or undefined. */
export const getBuiltInTool = (name: string): ToolDefinition | undefined => toolsByName.get(resolveToolAlias(name))

/** Whether every mode has the tool, whatever its groups: task-control tools and the `always` group. */
export const isAlwaysAvailable = (tool: ToolDefinition): boolean =>
  tool.group === 'always' || tool.effect === 'task-control'

/** Tools every mode has, whatever its groups (a disabled tool is still refused). */
export const ALWAYS_AVAILABLE_TOOLS: readonly string[] = builtInToolNames.filter((name) =>
  isAlwaysAvailable(getBuiltInTool(name)!)
)
