import type { LoopMode } from '../ports/loop-ports'
import type { RulesFile } from './rules-files'

export interface SystemPromptInput {
  mode: LoopMode
  modes: LoopMode[]
  workspace: string
  platform: string
  shell: string
  rules: RulesFile[]
}

/**
 * The system prompt: who the agent is in this mode, how tools work here, and the project's rules.
 * Every token is paid on every request, so it states only what the tool schemas do not already say.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const { mode } = input
  const sections = [
    mode.roleDefinition.trim(),
    `# How you work
- Use tools to act; every response must contain at least one tool call. Call several tools in one response when they are independent; they run in order.
- Paths are relative to the workspace root unless absolute. Read before you edit.
- Edits are proposals the user may review, change or reject before they are written; the tool result tells you what was written and what the user changed.
- A rejected or skipped call did not run; adjust instead of repeating it.
- When the task is done, call attempt_completion with the result. Use ask_followup_question only when you cannot proceed without the user.
- Put new_task last in its message; use update_todo_list to track multi-step work.`,
    `# Environment
Workspace: ${input.workspace}
OS: ${input.platform}; shell: ${input.shell}
Current mode: ${mode.slug} (${mode.name})`,
    `# Modes (for switch_mode and new_task)
${input.modes.map((m) => `- ${m.slug}: ${oneLine(m.whenToUse ?? m.name)}`).join('\n')}`
  ]
  const instructions = mode.customInstructions?.trim()
  if (instructions) sections.push(`# Mode instructions\n${instructions}`)
  if (input.rules.length > 0) {
    sections.push(`# Project rules\n${input.rules.map(ruleSection).join('\n\n')}`)
  }
  return sections.join('\n\n')
}

/** One rule file as the model reads it: where it comes from, and when it applies if not always. */
export const ruleSection = (rule: RulesFile): string =>
  `## ${rule.path}\n${rule.appliesTo ? `(Apply this rule only ${rule.appliesTo}.)\n` : ''}${rule.content}`

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim()
