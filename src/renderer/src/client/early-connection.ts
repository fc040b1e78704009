import { requestFrame, WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../../shared/contract/ws-protocol'
import { FIRST_SCREEN_REQUESTS } from './first-screen-requests'
import { dropTokenFromAddress, readPageToken } from './page-token'

/**
 * The web page's socket, opened by a tiny script that runs before the app's own scripts are even
 * fetched, so the handshake and the first screen's answers overlap their loading. The web client
 * adopts it: it replays what was received and takes the early answers for the same requests.
 */
export interface EarlyConnection {
  socket: WebSocket
  /** The token it connected with: the app keeps it for a reload, and reconnects with it. */
  token: string
  /** The first screen's requests, sent as soon as the socket opened, by id. */
  sent: ReadonlyArray<{ id: number; channel: string; payload: unknown }>
  /** Text frames received before the client took the socket over, in order. */
  received: string[]
  opened: boolean
  closed: boolean
}

export const webSocketUrl = (): string => `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`

/**
 * Nothing inside Electron (the preload bridge is the transport), without a token, or when the app
 * has already connected on its own (it sets `modusEarly` to `null` when it starts).
 */
export function openEarlyConnection(): EarlyConnection | undefined {
  if (window.modus || window.modusEarly === null) return undefined
  const token = readPageToken()
  if (!token) return undefined
  let socket: WebSocket
  try {
    socket = new WebSocket(webSocketUrl(), [WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX + token])
  } catch {
    return undefined // a token that cannot be a protocol name: the client reports it
  } finally {
    dropTokenFromAddress() // after the socket is on its way: a synchronous call into the browser
  }
  const early: EarlyConnection = {
    socket,
    token,
    sent: FIRST_SCREEN_REQUESTS.map((request, index) => ({ id: index + 1, ...request })),
    received: [],
    opened: false,
    closed: false
  }
  // A listener, not `onopen`: it must still send when the client has set its own handlers.
  socket.addEventListener('open', () => {
    early.opened = true
    for (const request of early.sent) socket.send(requestFrame(request.id, request.channel, request.payload))
  })
  socket.onmessage = (message) => early.received.push(String(message.data))
  socket.onclose = () => (early.closed = true)
  return early
}
