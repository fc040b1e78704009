import { z } from 'zod'
import { AgentEvent } from '../../../shared/agent/events'
import type { ConversationMessage } from '../../../shared/agent/messages'

/** What a task log starts with, and what a later `meta` line may change. */
/** Why messages stopped being sent to the model: condensed, truncated for space, or rewound by the user. */
export const HideReason = z.enum(['condense', 'truncate', 'rewind'])
export type HideReason = z.infer<typeof HideReason>

export const TaskMeta = z.object({
  id: z.string(),
  title: z.string(),
  mode: z.string(),
  workspace: z.string(),
  createdAt: z.number(),
  parentId: z.string().optional(),
  /** The new_task call in the parent that this child answers. */
  parentCallId: z.string().optional(),
  providerId: z.string().optional(),
  model: z.string().optional(),
  /** False when the model's price is unknown: the task's cost is unknown from the start, never $0.00. */
  priceKnown: z.boolean().optional()
})
export type TaskMeta = z.infer<typeof TaskMeta>

const ConversationMessageSchema = z.custom<ConversationMessage>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    ((value as { role?: unknown }).role === 'user' || (value as { role?: unknown }).role === 'assistant') &&
    Array.isArray((value as { content?: unknown }).content),
  'not a conversation message'
)

/**
 * One line of a task's append-only JSONL log. `message` lines are the model's view of the
 * conversation; `event` lines are what the user saw; `hide` marks messages a condense or
 * sliding window took out of the model's view (they stay in the log and in the UI).
 */
export const TaskRecord = z.discriminatedUnion('r', [
  z.object({ r: z.literal('meta'), meta: TaskMeta }),
  z.object({ r: z.literal('event'), event: AgentEvent }),
  z.object({
    r: z.literal('message'),
    id: z.string(),
    message: ConversationMessageSchema,
    /** Placed before this message in the model's view (a condense summary goes before the kept turns). */
    before: z.string().optional()
  }),
  z.object({ r: z.literal('hide'), ids: z.array(z.string()), reason: HideReason }),
  z.object({
    r: z.literal('state'),
    mode: z.string().optional(),
    todos: z.array(z.object({ text: z.string(), status: z.enum(['pending', 'in_progress', 'completed']) })).optional()
  })
])
export type TaskRecord = z.infer<typeof TaskRecord>
