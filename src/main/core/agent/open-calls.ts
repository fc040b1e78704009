import type { ToolResultBlock, ToolUseBlock } from '../../../shared/agent/messages'
import { resultText, textResult } from './call-results'
import { visibleMessages, type TaskSession } from './task-session'

/** Tool calls of the last assistant message that no user message has answered yet. */
export function openToolUses(session: TaskSession): ToolUseBlock[] {
  const visible = visibleMessages(session)
  const last = visible[visible.length - 1]
  if (!last || last.message.role !== 'assistant') return []
  return last.message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use')
}

const ANSWERED_BY_USER = new Set(['attempt_completion', 'ask_followup_question'])

/**
 * Results for every open call, in call order: the one produced, else the user's text for a
 * completion or question, else "interrupted" (it began and never finished) or "not run".
 */
export function closeOpenCalls(session: TaskSession, userText?: string): { results: ToolResultBlock[]; usedUserText: boolean } {
  let usedUserText = false
  const results = openToolUses(session).map((call) => {
    const produced = session.results.get(call.id)
    if (produced) return produced
    if (userText !== undefined && !usedUserText && ANSWERED_BY_USER.has(call.name)) {
      usedUserText = true
      return textResult(call.id, resultText.userMessage(userText))
    }
    if (session.startedCalls.has(call.id)) return textResult(call.id, resultText.interrupted(call.name), true)
    return textResult(call.id, resultText.cancelled(call.name), true)
  })
  return { results, usedUserText }
}
