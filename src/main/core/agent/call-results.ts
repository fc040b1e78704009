import type { ToolResultBlock } from '../../../shared/agent/messages'
import type { ToolOutput } from '../tools/types'

/** Tool results the loop itself writes; wording the model can act on. */
export const resultText = {
  userDenied: (reason?: string) =>
    `The user denied this operation.${reason?.trim() ? ` Their reason: ${reason.trim()}` : ''}`,
  policyDenied: (rule: string, reason: string) => `Denied by policy (${rule}): ${reason} The call was not run.`,
  skippedAfterRejection: (tool: string) =>
    `Skipped: not run because the user rejected an earlier tool call in this message (${tool}). Adjust your plan before calling it again.`,
  invalidArguments: (tool: string, detail: string) =>
    `Invalid tool call for '${tool}': the arguments are not valid JSON (${detail}). Send the call again with complete JSON arguments.`,
  repetition: (tool: string) =>
    `Tool call repetition limit reached for ${tool}: the same call was made several times in a row. Please try a different approach.`,
  interrupted: (tool: string) =>
    `The ${tool} call was interrupted (Modus stopped before it finished), so its effect is unknown. Check the state before trying again.`,
  cancelled: (tool: string) => `The ${tool} call was not completed: the user cancelled the task at this point.`,
  noToolUsed:
    '[ERROR] You did not use a tool in your previous response. Every response must call at least one tool: use attempt_completion when the task is done, or ask_followup_question if you need the user.',
  userMessage: (text: string) => `<user_message>\n${text}\n</user_message>`,
  approvedWithFeedback: (feedback: string) => `The user approved this call and added: ${feedback}`
}

export const toResultBlock = (toolUseId: string, output: ToolOutput): ToolResultBlock => ({
  type: 'tool_result',
  toolUseId,
  content: output.content,
  isError: output.isError
})

export const textResult = (toolUseId: string, text: string, isError = false): ToolResultBlock => ({
  type: 'tool_result',
  toolUseId,
  content: [{ type: 'text', text }],
  isError
})

/** The images of a result, for the tool-result event (the tool card shows them). */
export const resultImages = (block: ToolResultBlock): Array<{ mediaType: string; dataBase64: string }> | undefined => {
  const images = block.content.flatMap((part) => (part.type === 'image' ? [{ mediaType: part.mediaType, dataBase64: part.dataBase64 }] : []))
  return images.length > 0 ? images : undefined
}

export const resultAsText = (block: ToolResultBlock): string =>
  block.content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n')
