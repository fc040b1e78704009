import { z } from 'zod'
import type { Result } from '../result'

/**
 * The web page presents its token in the WebSocket handshake as a second subprotocol
 * (`modus-token.<token>`), since a browser cannot set other headers on a socket; the host answers
 * with the plain `modus` protocol so the token is never echoed. No cookie carries it: browsers share
 * cookies across ports, so any other local server would receive it.
 */
export const WS_PROTOCOL = 'modus'
export const WS_TOKEN_PROTOCOL_PREFIX = 'modus-token.'
/** Header of the page's token check (`GET /auth-check`), asked when the socket is refused. */
export const TOKEN_HEADER = 'x-modus-token'

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
