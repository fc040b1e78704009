import type { ConversationMessage, TextBlock } from '../../../shared/agent/messages'
import type { ModelProvider } from '../providers/types'
import type { StoredMessage } from '../store/task-replay'
import type { ModelInfo } from '../ports/loop-ports'
import { visibleMessages, type TaskSession } from '../ports/task-session'

const CHARS_PER_TOKEN = 3.5
const IMAGE_TOKENS = 1_000
/** Condense once the context passes this share of the window (or leaves no room for the answer). */
export const CONDENSE_AT_FRACTION = 0.8
export const MIN_MESSAGES_TO_CONDENSE = 5

/** A cheap token estimate of messages (the provider's usage is the real figure; this covers what is new). */
export function estimateTokens(messages: ConversationMessage[]): number {
  let chars = 0
  let images = 0
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === 'text' || block.type === 'reasoning') chars += block.text.length
      else if (block.type === 'image') images++
      else if (block.type === 'tool_use') chars += JSON.stringify(block.input ?? {}).length + block.name.length
      else if (block.type === 'tool_result') {
        for (const part of block.content) {
          if (part.type === 'text') chars += part.text.length
          else images++
        }
      }
    }
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS
}

/** Last reported context plus an estimate of the messages added since. */
export function currentContextTokens(session: TaskSession, systemAndTools: number): number {
  const added = session.history.slice(session.counters.historyAtLastRequest).filter((m) => !m.hidden)
  const base =
    session.counters.contextTokens || systemAndTools + estimateTokens(visibleMessages(session).map((m) => m.message))
  return base + estimateTokens(added.map((m) => m.message))
}

export function needsReduction(tokens: number, info: ModelInfo): boolean {
  if (!info.contextWindow) return false
  const allowed = info.contextWindow * 0.9 - info.maxOutputTokens
  return tokens >= Math.min(allowed, info.contextWindow * CONDENSE_AT_FRACTION)
}

/** The messages the model sees: visible ones, with a note where the sliding window cut. */
export function modelView(session: TaskSession): ConversationMessage[] {
  const visible = visibleMessages(session)
  const truncated = session.history.filter((m) => m.hidden === 'truncate').length
  // Consecutive messages of one role (guidance after tool results) are merged: providers expect turns to alternate.
  const view: ConversationMessage[] = []
  for (const { message } of visible) {
    const last = view[view.length - 1]
    if (last && last.role === message.role)
      view[view.length - 1] = { role: last.role, content: [...last.content, ...message.content] } as ConversationMessage
    else view.push(message)
  }
  if (truncated > 0 && view[0]?.role === 'user') {
    const note: TextBlock = {
      type: 'text',
      text: `[${truncated} earlier messages were hidden to fit the context window.]`
    }
    view[0] = { role: 'user', content: [...view[0].content, note] }
  }
  return view
}

/**
 * The kept tail starts at an assistant message, so no tool result loses its call; the first
 * visible message (the task, or an earlier summary) always stays.
 */
function splitForCondense(visible: StoredMessage[]): { middle: StoredMessage[]; tail: StoredMessage[] } | null {
  if (visible.length < MIN_MESSAGES_TO_CONDENSE) return null
  let start = visible.length - 2
  while (start > 1 && visible[start]?.message.role !== 'assistant') start--
  if (start <= 1) return null
  return { middle: visible.slice(1, start), tail: visible.slice(start) }
}

export const NOT_ENOUGH_HISTORY = 'not enough history to condense'

const SUMMARY_SYSTEM = `You write the summary that replaces the earlier part of a coding session, so the work can continue without it. Keep: the user's requests and constraints, decisions made, files read or changed (with paths and what changed), commands run and their outcomes, errors met and how they were solved, and what remains to do. Be factual and concise; use short headed sections. Do not call tools.`

/** Asks the model to summarise everything between the task and the last turns; hides what it replaced. */
export async function condenseHistory(
  session: TaskSession,
  provider: ModelProvider,
  model: string,
  signal: AbortSignal,
  now: () => number,
  /** The user asked for it (`/condense`), rather than a full context. */
  requested = false
): Promise<
  | { ok: true; summary: string; hidden: number; tokensBefore: number; tokensAfter: number }
  | { ok: false; reason: string }
> {
  const visible = visibleMessages(session)
  const split = splitForCondense(visible)
  if (!split) return { ok: false, reason: NOT_ENOUGH_HISTORY }
  const transcript = [visible[0], ...split.middle].map((m) => renderForSummary(m.message)).join('\n\n')
  let summary = ''
  try {
    for await (const event of provider.stream(
      {
        model,
        system: SUMMARY_SYSTEM,
        messages: [
          { role: 'user', content: [{ type: 'text', text: `Summarise this session so far:\n\n${transcript}` }] }
        ],
        tools: [],
        maxOutputTokens: 4_000
      },
      signal
    )) {
      if (event.type === 'text') summary += event.text
    }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
  if (!summary.trim()) return { ok: false, reason: 'the model returned an empty summary' }
  const tokensBefore = estimateTokens(visible.map((m) => m.message))
  const first = visible[0]
  const firstText = first.message.content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
  session.addMessage(
    {
      role: 'user',
      content: [{ type: 'text', text: `${firstText}\n\n## Summary of the conversation so far\n${summary.trim()}` }]
    },
    split.tail[0]?.id
  )
  session.hide([first.id, ...split.middle.map((m) => m.id)], 'condense')
  session.counters.contextTokens = 0
  const tokensAfter = estimateTokens(visibleMessages(session).map((m) => m.message))
  const hidden = split.middle.length + 1
  session.emit({
    type: 'context-condensed',
    at: now(),
    summary: summary.trim(),
    hiddenMessages: hidden,
    tokensBefore,
    tokensAfter,
    ...(requested ? { requested } : {})
  })
  return { ok: true, summary, hidden, tokensBefore, tokensAfter }
}

/** Fallback: hide about half of the messages after the first, ending before an assistant message. */
export function slideWindow(session: TaskSession, now: () => number, fraction = 0.5): number {
  const visible = visibleMessages(session)
  if (visible.length < 3) return 0
  let count = Math.max(1, Math.floor((visible.length - 1) * fraction))
  while (1 + count < visible.length - 1 && visible[1 + count]?.message.role !== 'assistant') count++
  if (1 + count >= visible.length) return 0
  const hidden = visible.slice(1, 1 + count).map((m) => m.id)
  session.hide(hidden, 'truncate')
  session.counters.contextTokens = 0
  session.emit({ type: 'context-truncated', at: now(), hiddenMessages: hidden.length })
  return hidden.length
}

function renderForSummary(message: ConversationMessage): string {
  const parts: string[] = []
  for (const block of message.content) {
    if (block.type === 'text') parts.push(block.text)
    else if (block.type === 'tool_use')
      parts.push(`[tool call ${block.name}: ${clip(JSON.stringify(block.input), 2_000)}]`)
    else if (block.type === 'tool_result') {
      const text = block.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join('\n')
      parts.push(`[tool result${block.isError ? ' (error)' : ''}: ${clip(text, 4_000)}]`)
    } else if (block.type === 'image') parts.push('[image]')
  }
  return `${message.role.toUpperCase()}: ${parts.join('\n')}`
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)} …[cut]` : text)
