import type { ModusClient, RequestOutput } from '../../../shared/contract'
import { createLazyEventFanout } from '../../../shared/contract/lazy-event-fanout'
import { loadEventSchemas, nextTask } from './event-schemas'
import { createEarlyAnswers } from './early-answers'
import type { EarlyConnection } from './early-connection'
import {
  requestFrame,
  TOKEN_HEADER,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
  type ServerMessage
} from '../../../shared/contract/ws-protocol'
import type { Result } from '../../../shared/result'

export type ConnectionState = 'connecting' | 'open' | 'closed' | 'unauthorized'

/**
 * The contract over a WebSocket to the web host. The token is offered in the handshake (as a
 * subprotocol). It reconnects with backoff; requests in flight when the socket drops fail with
 * `disconnected`, and `onConnectionChange` lets features resync from the core (the source of truth)
 * after a reconnect. A socket refused before ever opening asks the host whether the token is wrong,
 * and if so stops retrying with `unauthorized`. Given the page's early connection, it starts on that
 * socket and takes its answers for the first screen's requests. `loadSchemasWhen` says when to load
 * the event schemas if no event needs them first.
 */
export function createWebClient(
  url: string,
  token: string | null,
  onConnectionChange: (state: ConnectionState) => void = () => {},
  early?: EarlyConnection,
  loadSchemasWhen?: (start: () => void) => void
): ModusClient {
  const fanout = createLazyEventFanout((problem) => console.error(`Modus: ${problem}`), {
    load: loadEventSchemas,
    schedule: loadSchemasWhen,
    nextTask
  })
  const pending = new Map<number, (result: Result<unknown>) => void>()
  const earlyAnswers = createEarlyAnswers(early?.sent ?? [])
  const outbox: string[] = []
  let nextId = (early?.sent.length ?? 0) + 1
  let socket: WebSocket | null = null
  let retryMs = 250

  const connect = (): void => {
    onConnectionChange('connecting')
    let ws: WebSocket
    try {
      if (!token) throw new Error('no token')
      ws = new WebSocket(url, [WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX + token])
    } catch {
      return onConnectionChange('unauthorized') // no token, or one that cannot be a protocol name
    }
    attach(ws)
  }

  /** Takes the socket over; what it already went through is replayed with `open` and `close`. */
  const attach = (ws: WebSocket): { open: () => void; close: () => void } => {
    socket = ws
    let opened = false
    const open = (): void => {
      opened = true
      retryMs = 250
      onConnectionChange('open')
      for (const frame of outbox.splice(0)) ws.send(frame)
    }
    const close = (): void => {
      socket = null
      const lost = { ok: false as const, error: { code: 'disconnected', message: 'Lost the connection to Modus.' } }
      earlyAnswers.close(lost)
      for (const [id, resolve] of pending) {
        resolve(lost)
        pending.delete(id)
      }
      void (opened ? Promise.resolve(true) : tokenAccepted()).then((accepted) => {
        if (!accepted) return onConnectionChange('unauthorized')
        onConnectionChange('closed')
        setTimeout(connect, retryMs)
        retryMs = Math.min(retryMs * 2, 5000)
      })
    }
    ws.onopen = open
    ws.onmessage = (message) => receive(String(message.data))
    ws.onclose = close
    return { open, close }
  }

  /** The early socket as it stands: opened, then what it received in order, then closed. */
  const adopt = (early: EarlyConnection): void => {
    const { open, close } = attach(early.socket)
    if (early.opened) open()
    for (const text of early.received.splice(0)) receive(text)
    if (early.closed) close()
  }

  /** `false` only when the host answers that the token is wrong; unreachable hosts are retried. */
  const tokenAccepted = (): Promise<boolean> =>
    fetch('/auth-check', { headers: { [TOKEN_HEADER]: token ?? '' }, cache: 'no-store' })
      .then((res) => res.status !== 401)
      .catch(() => true)

  const receive = (text: string): void => {
    let message: ServerMessage
    try {
      message = JSON.parse(text) as ServerMessage
    } catch {
      return
    }
    if (message.kind === 'response') {
      const resolve = pending.get(message.id)
      pending.delete(message.id)
      fanout.inOrder(() => earlyAnswers.answer(message.id, message.result) || resolve?.(message.result))
    } else if (message.kind === 'event') {
      earlyAnswers.dropAll()
      fanout.deliver(message.name, message.payload)
    }
  }

  if (early) adopt(early)
  else connect()
  return {
    request(channel, input) {
      const answered = earlyAnswers.take(channel, input)
      if (answered) return answered as Promise<Result<RequestOutput<typeof channel>>>
      earlyAnswers.dropAll()
      const id = nextId++
      const frame = requestFrame(id, channel, input)
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: Result<unknown>) => void)
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(frame)
        else outbox.push(frame)
      })
    },
    subscribe: fanout.subscribe
  }
}
