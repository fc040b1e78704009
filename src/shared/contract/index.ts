import type { z } from 'zod'
import type { Result } from '../result'
import type { RequestSpec } from './define'
import { appEvents, appRequests } from './app'
import { codeIndexEvents, codeIndexRequests } from './code-index'
import { checkpointsEvents, checkpointsRequests } from './checkpoints'
import { modesEvents, modesRequests } from './modes'
import { approvalsEvents, approvalsRequests } from './approvals'
import { reviewEvents, reviewRequests } from './review'
import { settingsEvents, settingsRequests } from './settings'
import { taskEvents, taskRequests } from './task'
import { terminalEvents, terminalRequests } from './terminal'
import { workspaceEvents, workspaceRequests } from './workspace'
import { mcpEvents, mcpRequests } from './mcp'
import { sandboxRequests } from './sandbox'
import { worktreeReviewRequests } from './worktree-review'
import { worktreesEvents, worktreesRequests } from './worktrees'
import { commandsRequests } from './commands'
import { mentionsRequests } from './mentions'
import { promptRequests } from './prompt'
import { hooksRequests } from './hooks'

/**
 * The one contract between the renderer and the core. Each domain owns a file; this merges them.
 * Channels are `domain:verb` (requests) and `domain:noun` (events).
 */
export const requests = {
  ...appRequests,
  ...workspaceRequests,
  ...settingsRequests,
  ...taskRequests,
  ...approvalsRequests,
  ...reviewRequests,
  ...terminalRequests,
  ...modesRequests,
  ...mcpRequests,
  ...codeIndexRequests,
  ...checkpointsRequests,
  ...sandboxRequests,
  ...worktreeReviewRequests,
  ...worktreesRequests,
  ...commandsRequests,
  ...mentionsRequests,
  ...promptRequests,
  ...hooksRequests
} satisfies Record<string, RequestSpec>

export const events = {
  ...appEvents,
  ...workspaceEvents,
  ...settingsEvents,
  ...taskEvents,
  ...approvalsEvents,
  ...reviewEvents,
  ...terminalEvents,
  ...modesEvents,
  ...mcpEvents,
  ...codeIndexEvents,
  ...checkpointsEvents,
  ...worktreesEvents
} satisfies Record<string, z.ZodType>

export type Requests = typeof requests
export type Channel = keyof Requests
export type Events = typeof events
export type EventName = keyof Events

export type RequestInput<C extends Channel> = z.input<Requests[C]['input']>
export type RequestOutput<C extends Channel> = z.output<Requests[C]['output']>
export type EventPayload<E extends EventName> = z.output<Events[E]>

/** One event as the renderer receives it: its name and that event's payload type, as a pair. */
export type EventArgs = { [E in EventName]: [name: E, payload: EventPayload<E>] }[EventName]

/** A listener narrows the payload by checking the name: `if (name === 'task:updated') payload.id`. */
export type EventListener = (...args: EventArgs) => void

/** A core must provide every channel: a missing handler is a type error. */
export type Handlers = {
  [C in Channel]: (input: z.output<Requests[C]['input']>) => Promise<RequestOutput<C>>
}

/** What the renderer talks to, whatever carries it (Electron IPC or WebSocket). */
export interface ModusClient {
  request<C extends Channel>(channel: C, input: RequestInput<C>): Promise<Result<RequestOutput<C>>>
  /** Every event, parsed with its schema before it reaches the listener. */
  subscribe(listener: EventListener): () => void
}

export const isChannel = (name: string): name is Channel => Object.hasOwn(requests, name)
export const isEventName = (name: string): name is EventName => Object.hasOwn(events, name)
