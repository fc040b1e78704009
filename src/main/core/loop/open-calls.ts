import type { ToolResultBlock, ToolUseBlock } from '../../../shared/agent/messages'
import { resultText, textResult } from '../ports/call-results'
import { visibleMessages, type TaskSession } from '../ports/task-session'

/** Tool calls of the last assistant message that no user message has answered yet. */
export function openToolUses(session: TaskSession): ToolUseBlock[] {
  const visible = visibleMessages(session)
  const last = visible[visible.length - 1]
  if (!last || last.message.role !== 'assistant') return []
  return last.message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use')
}

/** The user's message, when given, and which tools it answers (their definition says so). */
export interface UserReply {
  text: string
  answers(toolName: string): boolean
}

/**
 * Results for every open call, in call order: the one produced, else the user's text for the first
 * call it answers (a completion or a question), else "interrupted" (it began and never finished)
 * or "not run".
 */
export function closeOpenCalls(
  session: TaskSession,
  reply?: UserReply
): { results: ToolResultBlock[]; usedUserText: boolean } {
  let usedUserText = false
  const results = openToolUses(session).map((call) => {
    const produced = session.results.get(call.id)
    if (produced) return produced
    if (reply && !usedUserText && reply.answers(call.name)) {
      usedUserText = true
      return textResult(call.id, resultText.userMessage(reply.text))
    }
    if (session.startedCalls.has(call.id)) return textResult(call.id, resultText.interrupted(call.name), true)
    return textResult(call.id, resultText.cancelled(call.name), true)
  })
  return { results, usedUserText }
}
