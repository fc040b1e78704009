import { z } from 'zod'
import type { Result } from '../result'

/** Frames of the WebSocket transport. Requests carry an id so responses can arrive out of order. */
const ClientMessage = z.object({ id: z.number().int().nonnegative(), channel: z.string(), payload: z.unknown() })
export type ClientMessage = z.infer<typeof ClientMessage>

export type ServerMessage =
  | { kind: 'response'; id: number; result: Result<unknown> }
  | { kind: 'event'; name: string; payload: unknown }
  | { kind: 'protocol-error'; message: string }

export function parseClientMessage(text: string): ClientMessage | null {
  try {
    const parsed = ClientMessage.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
