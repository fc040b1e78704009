import { getEncoding, type Tiktoken } from 'js-tiktoken'
import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { PromptPreview } from '../../../shared/contract/prompt'
import type { ToolSpec } from '../../../shared/tools/json-schema'
import type { ToolGate } from '../ports/loop-ports'
import type { AgentLoop } from './agent-loop'
import { loadRulesReport } from './rules-files'
import { ruleSection } from './system-prompt'

let encoding: Tiktoken | undefined
const tokens = (text: string): number => (encoding ??= getEncoding('o200k_base')).encode(text).length

/** A tool definition in the Anthropic wire form, as the model receives it and as it is counted. */
export interface WireTool {
  name: string
  description: string
  input_schema: ToolSpec['inputSchema']
}

/** Everything `modus prompt` and `prompt:preview` report, computed once for both. */
export interface PromptParts extends PromptPreview {
  wireTools: WireTool[]
}

/**
 * What a mode sends on every request in a workspace, counted in o200k tokens: the system prompt,
 * the tool definitions in the wire form, each rule file as the model reads it (heading and "apply
 * only" line included). `model` narrows the tools to what that model can use.
 */
export async function promptParts(
  loop: Pick<AgentLoop, 'requestPreview'>,
  mode: string,
  workspace: string,
  model?: string
): Promise<PromptParts> {
  const { system, tools } = await loop.requestPreview(mode, workspace, model)
  const wireTools = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema
  }))
  const rules = await loadRulesReport(workspace, mode)
  return {
    mode,
    system,
    systemTokens: tokens(system),
    toolTokens: tokens(JSON.stringify(wireTools)),
    tools: tools.map((tool) => tool.name),
    wireTools,
    rules: rules.files.map((file) => ({
      path: file.path,
      tokens: tokens(ruleSection(file)),
      ...(file.appliesTo ? { appliesTo: file.appliesTo } : {})
    })),
    skipped: rules.skipped
  }
}

/** The app's view of `modus prompt`: the same parts without the full tool definitions. */
export async function promptPreview(
  loop: Pick<AgentLoop, 'requestPreview'>,
  mode: string,
  workspace: string
): Promise<PromptPreview> {
  const { wireTools: _sentAsNames, ...preview } = await promptParts(loop, mode, workspace)
  return preview
}

/** `prompt:preview` for the open workspace. */
export function createPromptHandlers(deps: {
  loop: () => Pick<AgentLoop, 'requestPreview'>
  gate: Pick<ToolGate, 'mode' | 'modes'>
  currentWorkspace: () => string | null
  /** Re-reads the modes first (the user may have edited them), as a task start does. */
  beforePreview?: () => Promise<void>
}): Pick<Handlers, 'prompt:preview'> {
  return {
    async 'prompt:preview'({ mode }) {
      const root = deps.currentWorkspace()
      if (!root) throw new UserFacingError('no_workspace', 'Open a folder first: the prompt includes its rule files.')
      await deps.beforePreview?.()
      if (!deps.gate.mode(mode)) {
        const known = deps.gate
          .modes()
          .map((m) => m.slug)
          .join(', ')
        throw new UserFacingError('unknown_mode', `Unknown mode "${mode}". Available: ${known}`)
      }
      return promptPreview(deps.loop(), mode, root)
    }
  }
}
