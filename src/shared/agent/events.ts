import { z } from 'zod'

/**
 * Everything a task emits, in order. The task log stores these, the UI folds them with pure
 * reducers, and a reconnecting tab replays them — so one schema serves all three.
 */
const at = z.number()

export const Usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number().default(0),
  cacheWriteTokens: z.number().default(0),
  /** null when the model's price is unknown. */
  costUsd: z.number().nullable(),
  contextTokens: z.number(),
  contextWindow: z.number().nullable()
})
export type Usage = z.infer<typeof Usage>

export const AgentEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user-message'), at, text: z.string() }),
  z.object({ type: z.literal('assistant-start'), at, messageId: z.string(), model: z.string() }),
  z.object({ type: z.literal('text-delta'), messageId: z.string(), text: z.string() }),
  z.object({ type: z.literal('reasoning-delta'), messageId: z.string(), text: z.string() }),
  z.object({
    type: z.literal('assistant-end'),
    at,
    messageId: z.string(),
    /** end_turn, tool_use, max_tokens, cancelled, error */
    stopReason: z.string()
  }),
  z.object({
    type: z.literal('tool-call-partial'),
    messageId: z.string(),
    callId: z.string(),
    name: z.string(),
    argsText: z.string()
  }),
  z.object({
    type: z.literal('tool-call'),
    at,
    messageId: z.string(),
    callId: z.string(),
    name: z.string(),
    args: z.unknown()
  }),
  z.object({
    type: z.literal('tool-decision'),
    at,
    callId: z.string(),
    decision: z.enum(['allow', 'ask', 'deny']),
    /** Which rule or toggle decided, for "why was I asked". */
    rule: z.string(),
    reason: z.string()
  }),
  z.object({
    type: z.literal('tool-result'),
    at,
    callId: z.string(),
    isError: z.boolean(),
    text: z.string()
  }),
  z.object({ type: z.literal('usage'), at, usage: Usage }),
  z.object({
    type: z.literal('retry'),
    at,
    attempt: z.number(),
    delayMs: z.number(),
    reason: z.string()
  }),
  z.object({ type: z.literal('error'), at, message: z.string(), recoverable: z.boolean() }),
  z.object({
    type: z.literal('status'),
    at,
    status: z.enum(['running', 'waiting', 'idle', 'completed', 'failed', 'cancelled', 'interrupted'])
  }),
  z.object({
    type: z.literal('todos'),
    at,
    items: z.array(z.object({ text: z.string(), status: z.enum(['pending', 'in_progress', 'completed']) }))
  }),
  z.object({ type: z.literal('completion'), at, result: z.string() }),
  z.object({
    type: z.literal('followup'),
    at,
    callId: z.string(),
    question: z.string(),
    suggestions: z.array(z.object({ answer: z.string(), mode: z.string().optional() }))
  }),
  z.object({ type: z.literal('mode-changed'), at, mode: z.string(), reason: z.string().optional() })
])
export type AgentEvent = z.infer<typeof AgentEvent>
