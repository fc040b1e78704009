import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { TOKEN_HEADER, WS_TOKEN_PROTOCOL_PREFIX } from '../../shared/contract/ws-wire'

/** Constant-time comparison so the token cannot be guessed byte by byte from response times. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The token the page offers among its WebSocket subprotocols (never a cookie, never the query). */
export function tokenFromHandshake(req: IncomingMessage): string | null {
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
  const entry = offered.find((p) => p.startsWith(WS_TOKEN_PROTOCOL_PREFIX))
  return entry ? entry.slice(WS_TOKEN_PROTOCOL_PREFIX.length) : null
}

export function tokenFromHeader(req: IncomingMessage): string | null {
  const value = req.headers[TOKEN_HEADER]
  return typeof value === 'string' ? value : null
}

/**
 * Refuses DNS-rebinding: the Host header must name an address we listen on (or localhost).
 * A browser on a foreign site that resolves its own name to 127.0.0.1 still sends its own Host.
 */
export function hostAllowed(req: IncomingMessage, allowedHosts: ReadonlySet<string>): boolean {
  const host = (req.headers.host ?? '').toLowerCase()
  return allowedHosts.has(host)
}

/** The socket is opened only by our own page: its Origin must be present and be the host's own. */
export function originAllowed(req: IncomingMessage, allowedOrigins: ReadonlySet<string>): boolean {
  const origin = req.headers.origin
  return origin !== undefined && allowedOrigins.has(origin.toLowerCase())
}
