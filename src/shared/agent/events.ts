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

/** One model's share of a task's requests: summed over its usage events. */
export const ModelCost = z.object({
  model: z.string(),
  requests: z.number().int().nonnegative(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  /** null when any of its requests had an unknown price. */
  costUsd: z.number().nullable()
})
export type ModelCost = z.infer<typeof ModelCost>

/** What an approval item is about: a tool call, a staged edit (the diff review), or a paused loop. */
export const ApprovalKind = z.enum([
  'tool',
  'edit',
  'network',
  'request-limit',
  'cost-limit',
  'repetition',
  'mistake-limit'
])
export type ApprovalKind = z.infer<typeof ApprovalKind>

export const AgentEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('user-message'),
    at,
    text: z.string(),
    /** Images the user attached (kept with the task, so a reload or a resumed task shows them). */
    images: z.array(z.object({ mediaType: z.string(), dataBase64: z.string(), name: z.string().optional() })).optional()
  }),
  /** Files can be restored to this point (taken before a turn's work). */
  z.object({
    type: z.literal('checkpoint'),
    at,
    checkpointId: z.string(),
    label: z.string(),
    /** How many messages the model's history held here: "rewind the conversation" goes back to it. */
    messageCount: z.number().optional(),
    /** Saved by the user between turns (`/checkpoint`), not before a turn. */
    requested: z.boolean().optional(),
    /** With `requested`: files Modus changed in the task since the checkpoint before it. */
    changedSinceLast: z.number().int().nonnegative().optional()
  }),
  /**
   * Files put back by the user outside the model's turn (a checkpoint restore, or reverting one
   * change), once the review was accepted: a row in the chat, and a note to the model on its next turn.
   */
  z.object({
    type: z.literal('files-restored'),
    at,
    how: z.enum(['restore', 'revert']),
    /** restore: the turn's label (files are as before it); revert: the reverted change's path. */
    label: z.string(),
    /** The paths written, as the user accepted them. */
    files: z.array(z.string())
  }),
  /** The conversation was rewound to this checkpoint: what came after it is no longer sent or shown. */
  z.object({ type: z.literal('rewound'), at, checkpointId: z.string() }),
  z.object({ type: z.literal('assistant-start'), at, messageId: z.string(), model: z.string() }),
  z.object({ type: z.literal('text-delta'), messageId: z.string(), text: z.string() }),
  z.object({ type: z.literal('reasoning-delta'), messageId: z.string(), text: z.string() }),
  z.object({
    type: z.literal('assistant-end'),
    at,
    messageId: z.string(),
    /** end_turn, tool_use, max_tokens, cancelled, error */
    stopReason: z.string(),
    /** The answer failed after part of it streamed (a dropped connection, an overload): what arrived is cut off. */
    cutOff: z.boolean().optional()
  }),
  z.object({
    type: z.literal('tool-call-partial'),
    messageId: z.string(),
    callId: z.string(),
    name: z.string(),
    /** The arguments' text streamed since the previous partial event: a delta, never the whole text again. */
    argsDelta: z.string(),
    /** Length of the arguments' text before this delta; a view that missed earlier deltas (it joined mid-stream) waits for the tool-call. */
    argsOffset: z.number().int().nonnegative()
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
    text: z.string(),
    /** Images the tool returned (MCP tools), shown on the tool card. */
    images: z.array(z.object({ mediaType: z.string(), dataBase64: z.string() })).optional(),
    /** The call never ran (skipped after a rejection) or was cut short: what its card says instead of done/failed. */
    outcome: z.enum(['skipped', 'cancelled', 'interrupted']).optional(),
    /** The exit code of the command the call ran (execute_command). */
    exitCode: z.number().int().optional()
  }),
  /**
   * The live tail of a running command's output (execute_command), as the terminal shows it with
   * escape sequences removed: the last lines, whole each time (not a delta), throttled by the core.
   * Live only: never logged or replayed (the tool result holds the final output).
   */
  z.object({
    type: z.literal('tool-output'),
    callId: z.string(),
    tail: z.string(),
    /** Lines the command printed so far (the tail shows the last of them). */
    lines: z.number().int().nonnegative()
  }),
  /** Progress a long-running tool reports (MCP progress notifications), for its tool card. */
  z.object({
    type: z.literal('tool-progress'),
    at,
    callId: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional()
  }),
  z.object({ type: z.literal('usage'), at, usage: Usage }),
  z.object({
    type: z.literal('retry'),
    at,
    attempt: z.number(),
    delayMs: z.number(),
    reason: z.string(),
    /** The HTTP status of the failed request, when there was one (429, 529, 503 …). */
    status: z.number().int().optional()
  }),
  z.object({
    type: z.literal('error'),
    at,
    message: z.string(),
    recoverable: z.boolean(),
    /** The model request failed this way (auth, network, rate_limit, …): the card offers the fitting actions. */
    failure: z.string().optional()
  }),
  z.object({
    type: z.literal('status'),
    at,
    status: z.enum(['running', 'waiting', 'idle', 'stopped', 'completed', 'failed', 'cancelled', 'interrupted'])
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
  z.object({ type: z.literal('mode-changed'), at, mode: z.string(), reason: z.string().optional() }),
  /** A validated, allowed call began executing (a reload that finds no result marks it interrupted). */
  z.object({ type: z.literal('tool-started'), at, callId: z.string() }),
  z.object({
    type: z.literal('approval-requested'),
    at,
    approvalId: z.string(),
    callId: z.string().optional(),
    kind: ApprovalKind,
    summary: z.string(),
    rule: z.string(),
    reason: z.string()
  }),
  z.object({
    type: z.literal('approval-resolved'),
    at,
    approvalId: z.string(),
    outcome: z.enum(['approved', 'rejected', 'cancelled']),
    reason: z.string().optional()
  }),
  /**
   * A sandboxed command's connection waits for the user (approval item `approvalId`, also in the
   * queue), shown on the card of the call that ran the command.
   */
  z.object({
    type: z.literal('network-ask'),
    at,
    approvalId: z.string(),
    callId: z.string().optional(),
    host: z.string(),
    port: z.number().int().optional(),
    /** The command line that connects (the likeliest one when several sandboxed commands run). */
    command: z.string()
  }),
  /**
   * How a network ask ended. `gave-up`: the command ended while the ask waited (it timed out or was
   * stopped), e.g. "curl gave up waiting for approval of example.com:443 after 8 s"; `text` is that
   * sentence, as the card shows it.
   */
  z.object({
    type: z.literal('network-ask-ended'),
    at,
    approvalId: z.string(),
    outcome: z.enum(['allowed-once', 'allowed-always', 'denied', 'gave-up', 'cancelled']),
    text: z.string()
  }),
  /** A file change proposed by an edit call and what became of it; `auto` when the policy allowed it without review. */
  z.object({
    type: z.literal('change'),
    at,
    changeId: z.string(),
    callId: z.string(),
    path: z.string(),
    status: z.enum(['proposed', 'applied', 'partially-applied', 'rejected', 'reverted', 'failed']),
    auto: z.boolean(),
    detail: z.string().optional(),
    /** Hunks written of those proposed (a review that accepted only some). */
    hunksAccepted: z.number().int().optional(),
    hunksTotal: z.number().int().optional(),
    /** The user edited the proposed text before accepting it. */
    editedByUser: z.boolean().optional()
  }),
  /** Older turns were summarised by the model; they stay in the log and the UI, hidden from the model. */
  z.object({
    type: z.literal('context-condensed'),
    at,
    summary: z.string(),
    hiddenMessages: z.number(),
    tokensBefore: z.number(),
    /** The conversation's estimated tokens once condensed (absent in older logs). */
    tokensAfter: z.number().optional(),
    /** The user asked for it (`/condense`); otherwise the context was full. */
    requested: z.boolean().optional()
  }),
  /**
   * What the task's model requests used so far, per model, as the user asked for it (`/cost`): a
   * row in the chat and the log; like every event, never sent to the model.
   */
  z.object({ type: z.literal('cost-report'), at, models: z.array(ModelCost) }),
  z.object({ type: z.literal('context-truncated'), at, hiddenMessages: z.number() }),
  z.object({
    type: z.literal('subtask'),
    at,
    callId: z.string(),
    childId: z.string(),
    mode: z.string(),
    status: z.enum(['started', 'completed', 'failed']),
    message: z.string().optional(),
    result: z.string().optional()
  })
])
export type AgentEvent = z.infer<typeof AgentEvent>
