import { randomUUID } from 'node:crypto'
import type { AssistantBlock } from '../../../shared/agent/messages'
import { createTurnAssembler } from '../providers/assemble-turn'
import type { ModelRequest } from '../providers/types'
import type { ProviderPort } from '../ports/loop-ports'
import type { TaskSession } from '../ports/task-session'

export interface CompleteCall {
  callId: string
  name: string
  input: unknown
  parseError?: string
}

export type TurnOutcome =
  | { kind: 'done'; messageId: string; blocks: AssistantBlock[]; calls: CompleteCall[]; stopReason: string }
  | { kind: 'cancelled'; messageId: string; blocks: AssistantBlock[] }
  | { kind: 'failed'; messageId: string; blocks: AssistantBlock[]; error: unknown; errorKind: string }

/** Argument deltas go out with every chunk while the text is small, then once it has grown by a quarter (fewer events; each byte is sent once). */
const PARTIAL_ALWAYS_BELOW = 4_096

/**
 * Streams one model request into events the user sees as they arrive, and returns the assistant
 * message it assembled. Errors and cancellation keep what already arrived.
 */
export async function streamTurn(
  session: TaskSession,
  port: ProviderPort,
  request: ModelRequest,
  signal: AbortSignal,
  now: () => number
): Promise<TurnOutcome> {
  const messageId = randomUUID()
  // The message the conversation keeps is folded by the same assembler the provider tests check.
  const assembler = createTurnAssembler()
  const turn = assembler.result()
  const partials = new Map<string, { name: string; args: string; sentLength: number }>()
  session.emit({ type: 'assistant-start', at: now(), messageId, model: port.model })

  const withoutCalls = (): AssistantBlock[] => turn.content.filter((b) => b.type !== 'tool_use')
  const recordUsage = () => {
    const usage = turn.usage
    if (!usage) return
    session.counters.requests++
    const cost = port.info.costUsd(usage)
    const counters = session.counters
    counters.costUsd = counters.costUsd === null || cost === null ? null : counters.costUsd + cost
    counters.contextTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens
    counters.historyAtLastRequest = session.history.length + 1
    session.emit({
      type: 'usage',
      at: now(),
      usage: { ...usage, costUsd: cost, contextTokens: counters.contextTokens, contextWindow: port.info.contextWindow }
    })
  }

  try {
    for await (const event of port.provider.stream(request, signal)) {
      assembler.push(event)
      // Only while the provider waits to retry can the wait be cut short.
      session.retryNow = event.type === 'retry' ? (event.retryNow ?? null) : null
      switch (event.type) {
        case 'text':
          session.emit({ type: 'text-delta', messageId, text: event.text })
          break
        case 'reasoning':
          session.emit({ type: 'reasoning-delta', messageId, text: event.text })
          break
        case 'tool-call-start':
          partials.set(event.callId, { name: event.name, args: '', sentLength: 0 })
          session.emit({
            type: 'tool-call-partial',
            messageId,
            callId: event.callId,
            name: event.name,
            argsDelta: '',
            argsOffset: 0
          })
          break
        case 'tool-call-delta': {
          const partial = partials.get(event.callId)
          if (!partial) break
          partial.args += event.argsDelta
          if (partial.args.length < PARTIAL_ALWAYS_BELOW || partial.args.length >= partial.sentLength * 1.25) {
            // Only what is new since the last event: resending the whole text made a 3 MB file cost every client ~30 MB.
            const argsDelta = partial.args.slice(partial.sentLength)
            const argsOffset = partial.sentLength
            partial.sentLength = partial.args.length
            session.emit({
              type: 'tool-call-partial',
              messageId,
              callId: event.callId,
              name: partial.name,
              argsDelta,
              argsOffset
            })
          }
          break
        }
        case 'retry':
          session.emit({
            type: 'retry',
            at: now(),
            attempt: event.attempt,
            delayMs: event.delayMs,
            reason: event.reason,
            status: event.status
          })
          break
      }
    }
  } catch (error) {
    session.retryNow = null
    recordUsage()
    const errorKind = classifyError(error, signal)
    const kept = withoutCalls()
    // Text that stopped arriving mid-answer stays on screen, marked as cut off.
    const cutOff = kept.length > 0 || partials.size > 0
    if (errorKind === 'cancelled')
      session.emit({ type: 'assistant-end', at: now(), messageId, stopReason: 'cancelled' })
    else
      session.emit({
        type: 'assistant-end',
        at: now(),
        messageId,
        stopReason: 'error',
        ...(cutOff ? { cutOff: true } : {})
      })
    if (errorKind === 'cancelled') return { kind: 'cancelled', messageId, blocks: kept }
    return { kind: 'failed', messageId, blocks: kept, error, errorKind }
  }
  recordUsage()
  if (signal.aborted) {
    session.emit({ type: 'assistant-end', at: now(), messageId, stopReason: 'cancelled' })
    return { kind: 'cancelled', messageId, blocks: withoutCalls() }
  }
  const stopReason = turn.stopReason ?? 'other'
  session.emit({ type: 'assistant-end', at: now(), messageId, stopReason })
  return { kind: 'done', messageId, blocks: turn.content, calls: turn.toolCalls, stopReason }
}

/** Provider errors carry a `kind`; anything else is judged by its message. */
export function classifyError(error: unknown, signal?: AbortSignal): string {
  if (signal?.aborted) return 'cancelled'
  const kind = (error as { kind?: unknown })?.kind
  if (typeof kind === 'string') return kind
  const message = error instanceof Error ? error.message : String(error)
  if (/abort/i.test((error as Error)?.name ?? '') || /aborted|cancel/i.test(message)) return 'cancelled'
  if (/context.{0,20}(length|window)|prompt is too long|maximum context|too many tokens/i.test(message))
    return 'context_too_long'
  return 'unknown'
}

export const isContextTooLong = (kind: string): boolean =>
  /context/i.test(kind) && /long|exceed|length|window/i.test(kind)

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))
