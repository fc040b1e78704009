import { isEventName, type EventName, type ModusClient } from '../../../shared/contract'
import type { ServerMessage } from '../../../shared/contract/ws-wire'
import type { Result } from '../../../shared/result'

type Listener = (name: EventName, payload: unknown) => void
export type ConnectionState = 'connecting' | 'open' | 'closed'

/**
 * The contract over a WebSocket to the web host. The page's cookie carries the token. It reconnects
 * with backoff; requests in flight when the socket drops fail with `disconnected`, and
 * `onConnectionChange` lets features resync from the core (the source of truth) after a reconnect.
 */
export function createWebClient(
  url: string,
  onConnectionChange: (state: ConnectionState) => void = () => {}
): ModusClient {
  const listeners = new Set<Listener>()
  const pending = new Map<number, (result: Result<unknown>) => void>()
  const outbox: string[] = []
  let nextId = 1
  let socket: WebSocket | null = null
  let retryMs = 250

  const connect = (): void => {
    onConnectionChange('connecting')
    const ws = new WebSocket(url)
    socket = ws
    ws.onopen = () => {
      retryMs = 250
      onConnectionChange('open')
      for (const frame of outbox.splice(0)) ws.send(frame)
    }
    ws.onmessage = (message) => receive(String(message.data))
    ws.onclose = () => {
      socket = null
      for (const [id, resolve] of pending) {
        resolve({ ok: false, error: { code: 'disconnected', message: 'Lost the connection to Modus.' } })
        pending.delete(id)
      }
      onConnectionChange('closed')
      setTimeout(connect, retryMs)
      retryMs = Math.min(retryMs * 2, 5000)
    }
  }

  const receive = (text: string): void => {
    let message: ServerMessage
    try {
      message = JSON.parse(text) as ServerMessage
    } catch {
      return
    }
    if (message.kind === 'response') {
      pending.get(message.id)?.(message.result)
      pending.delete(message.id)
    } else if (message.kind === 'event' && isEventName(message.name)) {
      for (const listener of listeners) listener(message.name as EventName, message.payload)
    }
  }

  connect()
  return {
    request(channel, input) {
      const id = nextId++
      const frame = JSON.stringify({ id, channel, payload: input })
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: Result<unknown>) => void)
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(frame)
        else outbox.push(frame)
      })
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}
