import type { ToolDefinition, ToolGroupName } from './types'
import { readFileTool } from './read-file'
import { listFilesTool } from './list-files'
import { searchFilesTool } from './search-files'
import { listCodeDefinitionNamesTool } from './list-code-definition-names'
import { writeToFileTool } from './write-to-file'
import { applyDiffTool } from './apply-diff'
import { editTool } from './edit'
import { applyPatchTool } from './apply-patch'
import { executeCommandTool } from './execute-command'
import { readCommandOutputTool } from './read-command-output'
import { askFollowupQuestionTool } from './ask-followup-question'
import { attemptCompletionTool } from './attempt-completion'
import { switchModeTool } from './switch-mode'
import { newTaskTool } from './new-task'
import { updateTodoListTool } from './update-todo-list'
import { useMcpToolTool } from './use-mcp-tool'
import { accessMcpResourceTool } from './access-mcp-resource'

/** Every built-in tool, in the order the model is offered them. */
export const builtInTools: readonly ToolDefinition[] = [
  readFileTool,
  listFilesTool,
  searchFilesTool,
  listCodeDefinitionNamesTool,
  writeToFileTool,
  applyDiffTool,
  editTool,
  applyPatchTool,
  executeCommandTool,
  readCommandOutputTool,
  askFollowupQuestionTool,
  attemptCompletionTool,
  switchModeTool,
  newTaskTool,
  updateTodoListTool,
  useMcpToolTool,
  accessMcpResourceTool
] as ToolDefinition[]

export const builtInToolNames: readonly string[] = builtInTools.map((tool) => tool.name)

const toolsByName: ReadonlyMap<string, ToolDefinition> = new Map(
  builtInTools.map((tool) => [tool.name, tool])
)

/** Names some models are trained on; resolved before validation, the model keeps seeing its name. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  write_file: 'write_to_file',
  search_and_replace: 'edit'
}

export const resolveToolAlias = (name: string): string =>
  Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : name

/** The built-in definition for a name (aliases resolved), or undefined. */
export const getBuiltInTool = (name: string): ToolDefinition | undefined =>
  toolsByName.get(resolveToolAlias(name))

/** Tools every mode has, whatever its groups (a disabled tool is still refused). */
export const ALWAYS_AVAILABLE_TOOLS: readonly string[] = [
  'ask_followup_question',
  'attempt_completion',
  'switch_mode',
  'new_task',
  'update_todo_list'
]

/**
 * Edit tools offered only to models that ask for them (ModelInfo.includedTools), as in Roo:
 * GPT models get apply_patch, others apply_diff/write_to_file.
 */
export const OPT_IN_TOOLS: readonly string[] = ['edit', 'apply_patch']

export const TOOL_GROUP_NAMES: readonly ToolGroupName[] = ['read', 'edit', 'command', 'mcp', 'modes']

/** Built-in tool names per group. */
export const toolsInGroup = (group: ToolGroupName): string[] =>
  builtInTools.filter((tool) => tool.group === group).map((tool) => tool.name)
