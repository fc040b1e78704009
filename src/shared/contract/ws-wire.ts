import { z } from 'zod'

export { TOKEN_HEADER, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX, type ServerMessage } from './ws-protocol'

/** Frames of the WebSocket transport. Requests carry an id so responses can arrive out of order. */
const ClientMessage = z.object({ id: z.number().int().nonnegative(), channel: z.string(), payload: z.unknown() })
export type ClientMessage = z.infer<typeof ClientMessage>

export function parseClientMessage(text: string): ClientMessage | null {
  try {
    const parsed = ClientMessage.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
