import { z } from 'zod'
import { request } from './define'
import { AgentEvent, ModelCost } from '../agent/events'
import { ImageAttachments } from '../agent/images'

export const TaskSummary = z.object({
  id: z.string(),
  title: z.string(),
  mode: z.string(),
  status: z.enum(['running', 'waiting', 'idle', 'stopped', 'completed', 'failed', 'cancelled', 'interrupted']),
  createdAt: z.number(),
  updatedAt: z.number(),
  parentId: z.string().optional(),
  /** Real path of the workspace the task runs in. */
  workspace: z.string().optional(),
  /** Total cost so far; null when a model's price is unknown. */
  costUsd: z.number().nullable().optional()
})
export type TaskSummary = z.infer<typeof TaskSummary>

/** A message needs words or an image: an image alone is a message too. */
const hasContent = (input: { text: string; images?: unknown[] }) =>
  input.text.trim().length > 0 || (input.images?.length ?? 0) > 0
const EMPTY_MESSAGE = { message: 'Write a message or attach an image.', path: ['text'] }

/** What `/condense` did: the messages it summarised and the conversation's estimated tokens before and after. */
export const CondenseOutcome = z.object({
  hiddenMessages: z.number().int(),
  tokensBefore: z.number(),
  tokensAfter: z.number()
})
export type CondenseOutcome = z.infer<typeof CondenseOutcome>

export const taskRequests = {
  /** Starts a task in the open workspace; the reply streams as `task:event`. */
  'task:start': request(
    z
      .object({
        text: z.string().max(200_000),
        mode: z.string().optional(),
        /** Pasted or dropped images; refused before sending when the model does not take images. */
        images: ImageAttachments.optional()
      })
      .strict()
      .refine(hasContent, EMPTY_MESSAGE),
    TaskSummary
  ),
  /** A user message to an existing task (answer, follow-up, resume). */
  'task:send': request(
    z
      .object({
        taskId: z.string(),
        text: z.string().max(200_000),
        images: ImageAttachments.optional(),
        /** Answering a follow-up with a suggestion that names a mode switches to it first. */
        mode: z.string().optional()
      })
      .strict()
      .refine(hasContent, EMPTY_MESSAGE),
    TaskSummary
  ),
  /**
   * `/condense`: summarises the task's earlier conversation now, as the loop does when the context
   * is full; a row in the chat says what it did. Refused while a turn runs or when there is too
   * little to condense.
   */
  'task:condense': request(z.object({ taskId: z.string() }).strict(), CondenseOutcome),
  /** `/cost`: the task's tokens and cost per model, also left as a row in its chat (never sent to the model). */
  'task:cost': request(z.object({ taskId: z.string() }).strict(), z.object({ models: z.array(ModelCost) })),
  'task:cancel': request(z.object({ taskId: z.string() }).strict(), TaskSummary),
  'task:list': request(z.object({}).strict(), z.array(TaskSummary)),
  /** Every event of a task so far, so a tab that (re)connects can rebuild its view. */
  'task:events': request(z.object({ taskId: z.string() }).strict(), z.array(AgentEvent)),
  /** Continues a task that was interrupted (app closed or killed) or that failed: pending approvals are asked again. */
  'task:resume': request(z.object({ taskId: z.string() }).strict(), TaskSummary),
  /** Ends the wait before a retried model request ("Retry now"); `woken` false when nothing was waiting. */
  'task:retryNow': request(z.object({ taskId: z.string() }).strict(), z.object({ woken: z.boolean() })),
  /** Takes the conversation back to a checkpoint: later messages are no longer sent or shown (files untouched). */
  'task:rewind': request(z.object({ taskId: z.string(), checkpointId: z.string() }).strict(), TaskSummary),
  'task:delete': request(z.object({ taskId: z.string() }).strict(), z.object({ deleted: z.boolean() })),
  'task:export': request(
    z.object({ taskId: z.string(), format: z.enum(['markdown', 'json']) }).strict(),
    z.object({ fileName: z.string(), content: z.string() })
  )
}

export const taskEvents = {
  'task:event': z.object({ taskId: z.string(), event: AgentEvent }),
  'task:updated': TaskSummary
}
