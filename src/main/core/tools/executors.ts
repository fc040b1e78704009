import type { builtInTools, ToolName } from '../../../shared/tools/catalog'
import type { z } from 'zod'
import type { CodeIndex } from '../code-index/code-index'
import type { CodeParser } from '../code-index/parser'
import type { McpPort } from '../mcp/mcp-port'
import type { BrowserSessions } from '../browser/browser-sessions'
import { createBrowserActionExecutor } from './browser-action'
import { createAccessMcpResourceExecutor } from './access-mcp-resource'
import { applyDiffExecutor } from './apply-diff'
import { applyPatchExecutor } from './apply-patch'
import { askFollowupQuestionExecutor } from './ask-followup-question'
import { attemptCompletionExecutor } from './attempt-completion'
import { editExecutor } from './edit'
import { executeCommandExecutor } from './execute-command'
import { createCodebaseSearchExecutor } from './codebase-search'
import { createListCodeDefinitionNamesExecutor } from './list-code-definition-names'
import { listFilesExecutor } from './list-files'
import { newTaskExecutor } from './new-task'
import { readCommandOutputExecutor } from './read-command-output'
import { readFileExecutor } from './read-file'
import { searchFilesExecutor } from './search-files'
import { switchModeExecutor } from './switch-mode'
import { textOutput, type ExecutorFor, type ToolExecutor } from '../ports/tool-types'
import { updateTodoListExecutor } from './update-todo-list'
import { createUseMcpToolExecutor } from './use-mcp-tool'
import { createSearchMcpToolsExecutor } from './search-mcp-tools'
import { writeToFileExecutor } from './write-to-file'

type Definition<N extends ToolName> = Extract<(typeof builtInTools)[number], { name: N }>

/** Each built-in tool's executor, of the shape its definition's effect calls for. */
export type BuiltInExecutors = {
  readonly [N in ToolName]: ExecutorFor<Definition<N>['effect'], z.output<Definition<N>['params']>>
}

export interface BuiltInExecutorDeps {
  codeParser: CodeParser
  /** A workspace's code index (codebase_search), opened and built in the background on first use. */
  codeIndex?: (root: string) => Promise<CodeIndex>
  /** The MCP servers; without it the MCP tools answer that no server is connected. */
  mcp?: McpPort
  /** The tasks' browsers (browser_action). */
  browsers: BrowserSessions
}

const noMcp: ToolExecutor<unknown> = {
  execute: async () => textOutput('No MCP server is connected in this session of Modus.', true)
}

const noCodeIndex: ToolExecutor<unknown> = {
  execute: async () => textOutput('No code index is available in this session of Modus.', true)
}

/** One executor per built-in tool; a tool added to the catalog without one does not compile. */
export function createBuiltInExecutors(deps: BuiltInExecutorDeps): BuiltInExecutors {
  return {
    read_file: readFileExecutor,
    list_files: listFilesExecutor,
    search_files: searchFilesExecutor,
    list_code_definition_names: createListCodeDefinitionNamesExecutor(deps.codeParser),
    codebase_search: deps.codeIndex ? createCodebaseSearchExecutor({ indexFor: deps.codeIndex }) : noCodeIndex,
    write_to_file: writeToFileExecutor,
    apply_diff: applyDiffExecutor,
    edit: editExecutor,
    apply_patch: applyPatchExecutor,
    execute_command: executeCommandExecutor,
    read_command_output: readCommandOutputExecutor,
    browser_action: createBrowserActionExecutor(deps.browsers),
    ask_followup_question: askFollowupQuestionExecutor,
    attempt_completion: attemptCompletionExecutor,
    switch_mode: switchModeExecutor,
    new_task: newTaskExecutor,
    update_todo_list: updateTodoListExecutor,
    search_mcp_tools: deps.mcp ? createSearchMcpToolsExecutor(deps.mcp) : noMcp,
    use_mcp_tool: deps.mcp ? createUseMcpToolExecutor(deps.mcp) : noMcp,
    access_mcp_resource: deps.mcp ? createAccessMcpResourceExecutor(deps.mcp) : noMcp
  }
}
