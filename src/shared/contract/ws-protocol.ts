import type { Result } from '../result'

/**
 * The web page presents its token in the WebSocket handshake as a second subprotocol
 * (`modus-token.<token>`), since a browser cannot set other headers on a socket; the host answers
 * with the plain `modus` protocol so the token is never echoed. No cookie carries it: browsers share
 * cookies across ports, so any other local server would receive it. (Kept apart from `ws-wire`, whose
 * zod schema only the host needs, so the page's first chunk carries no zod.)
 */
export const WS_PROTOCOL = 'modus'
export const WS_TOKEN_PROTOCOL_PREFIX = 'modus-token.'
/** Header of the page's token check (`GET /auth-check`), asked when the socket is refused. */
export const TOKEN_HEADER = 'x-modus-token'

export type ServerMessage =
  | { kind: 'response'; id: number; result: Result<unknown> }
  | { kind: 'event'; name: string; payload: unknown }
  | { kind: 'protocol-error'; message: string }

/** A request as the page sends it; the host answers with a `response` of the same id. */
export const requestFrame = (id: number, channel: string, payload: unknown): string =>
  JSON.stringify({ id, channel, payload })
