import type { AssistantBlock } from '../../../shared/agent/messages'
import type { ModelStreamEvent, ModelUsage } from './types'

export interface CompletedToolCall {
  callId: string
  name: string
  input: unknown
  rawArgs: string
  parseError?: string
}

export interface AssembledTurn {
  /** The assistant message so far, in arrival order; valid after a cancel or a mid-stream error too. */
  content: AssistantBlock[]
  toolCalls: CompletedToolCall[]
  usage: ModelUsage | null
  stopReason: Extract<ModelStreamEvent, { type: 'done' }>['stopReason'] | null
  rawStopReason?: string
}

/**
 * Folds a provider's events into the assistant message the conversation keeps. Consecutive text
 * (or reasoning) deltas extend one block; a reasoning signature lands on the latest reasoning block;
 * partial tool calls are left out until complete.
 */
export function createTurnAssembler() {
  const turn: AssembledTurn = { content: [], toolCalls: [], usage: null, stopReason: null }
  const last = (): AssistantBlock | undefined => turn.content[turn.content.length - 1]

  return {
    push(event: ModelStreamEvent): void {
      const tail = last()
      switch (event.type) {
        case 'text':
          // An empty delta adds no block: the providers refuse an empty text block sent back.
          if (!event.text) break
          if (tail?.type === 'text') tail.text += event.text
          else turn.content.push({ type: 'text', text: event.text })
          break
        case 'reasoning':
          if (!event.text) break
          if (tail?.type === 'reasoning' && tail.signature === undefined) tail.text += event.text
          else turn.content.push({ type: 'reasoning', text: event.text })
          break
        case 'reasoning-signature': {
          const reasoning = [...turn.content].reverse().find((block) => block.type === 'reasoning')
          if (reasoning && reasoning.type === 'reasoning') reasoning.signature = event.signature
          // Thinking with an empty text but a signature still has to go back.
          else turn.content.push({ type: 'reasoning', text: '', signature: event.signature })
          break
        }
        case 'tool-call': {
          const { type: _type, ...call } = event
          turn.toolCalls.push(call)
          turn.content.push({ type: 'tool_use', id: event.callId, name: event.name, input: event.input ?? {} })
          break
        }
        case 'usage':
          turn.usage = event.usage
          break
        case 'done':
          turn.stopReason = event.stopReason
          if (event.rawStopReason !== undefined) turn.rawStopReason = event.rawStopReason
          break
      }
    },
    result: (): AssembledTurn => turn
  }
}
