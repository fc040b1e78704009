import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export const TOKEN_COOKIE = 'modus_token'

/** Constant-time comparison so the token cannot be guessed byte by byte from response times. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function tokenFromRequest(req: IncomingMessage): string | null {
  const url = new URL(req.url ?? '/', 'http://localhost')
  const fromQuery = url.searchParams.get('token')
  if (fromQuery) return fromQuery
  const cookie = req.headers.cookie ?? ''
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === TOKEN_COOKIE) return decodeURIComponent(rest.join('='))
  }
  return null
}

/**
 * Refuses DNS-rebinding: the Host header must name the address we listen on (or localhost).
 * A browser on a foreign site that resolves its own name to 127.0.0.1 still sends its own Host.
 */
export function hostAllowed(req: IncomingMessage, allowedHosts: ReadonlySet<string>): boolean {
  const host = (req.headers.host ?? '').toLowerCase()
  return allowedHosts.has(host)
}

/** A WebSocket or state-changing request must come from our own page (or from no browser at all). */
export function originAllowed(req: IncomingMessage, allowedOrigins: ReadonlySet<string>): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true // non-browser clients (CLI tools, tests) send no Origin
  return allowedOrigins.has(origin.toLowerCase())
}

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Monaco and xterm set inline styles on their elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'"
].join('; ')
