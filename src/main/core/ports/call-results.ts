import type { ToolResultBlock } from '../../../shared/agent/messages'
import type { ToolOutput } from './tool-types'

/**
 * Every result of a call that was refused (by the user, the policy or a limit) starts with this and
 * is sent as an error result, so the model and any harness can tell a refusal from a success.
 */
export const REFUSED_PREFIX = '[REFUSED'

/** The text after a refusal's bracketed prefix (the text itself when it has none). */
export const withoutRefusedPrefix = (text: string): string =>
  text.startsWith(REFUSED_PREFIX) && text.includes(']') ? text.slice(text.indexOf(']') + 1).trimStart() : text

const theirReason = (reason?: string): string => (reason?.trim() ? ` Their reason: ${reason.trim()}` : '')

/** Tool results the loop itself writes; wording the model can act on. */
export const resultText = {
  userDenied: (reason?: string) =>
    `${REFUSED_PREFIX} by the user] The user denied this operation.${theirReason(reason)}`,
  /** Nobody could be asked (a non-interactive run): no one denied it, it was not approved. */
  notApproved: () =>
    `${REFUSED_PREFIX}: not approved — non-interactive run] Not run: this call needs approval, and Modus runs non-interactively, so nobody can approve it. Decide with what you know, or finish with attempt_completion and say what is missing.`,
  policyDenied: (rule: string, reason: string) =>
    `${REFUSED_PREFIX} by policy] Denied by policy (${rule}): ${reason} The call was not run.`,
  skippedAfterRejection: (tool: string) =>
    `${REFUSED_PREFIX}: skipped] Skipped: not run because the user rejected an earlier tool call in this message (${tool}). Adjust your plan before calling it again.`,
  invalidArguments: (tool: string, detail: string) =>
    `Invalid tool call for '${tool}': the arguments are not valid JSON (${detail}). Send the call again with complete JSON arguments.`,
  repetition: (tool: string, reason?: string) =>
    `${REFUSED_PREFIX}: repetition limit] Tool call repetition limit reached for ${tool}: the same call was made several times in a row, and the user declined to run it again.${theirReason(reason)} Please try a different approach.`,
  /** A pause (mistake, request or cost limit) the user answered with "stop" and a reason. */
  pauseRejected: (what: string, reason: string) => `The user stopped the task at the ${what}.${theirReason(reason)}`,
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

/** A call that did not run because it was refused: always an error result. */
export const refusedResult = (toolUseId: string, text: string): ToolResultBlock => textResult(toolUseId, text, true)

export const textResult = (toolUseId: string, text: string, isError = false): ToolResultBlock => ({
  type: 'tool_result',
  toolUseId,
  content: [{ type: 'text', text }],
  isError
})

/** The images of a result, for the tool-result event (the tool card shows them). */
export const resultImages = (block: ToolResultBlock): Array<{ mediaType: string; dataBase64: string }> | undefined => {
  const images = block.content.flatMap((part) =>
    part.type === 'image' ? [{ mediaType: part.mediaType, dataBase64: part.dataBase64 }] : []
  )
  return images.length > 0 ? images : undefined
}

export const resultAsText = (block: ToolResultBlock): string =>
  block.content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n')
