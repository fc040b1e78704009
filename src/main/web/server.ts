import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Core } from '../core/create-core'
import { createStaticFiles } from './static-files'
import { hostAllowed, originAllowed, tokenFromHandshake, tokenFromHeader, tokenMatches } from './security'
import { CONTENT_SECURITY_POLICY } from '../../shared/content-security-policy'
import { parseClientMessage, WS_PROTOCOL, type ServerMessage } from '../../shared/contract/ws-wire'

export interface WebHostOptions {
  core: Core
  /** The built renderer (`out/renderer`). */
  staticDir: string
  host?: string
  port?: number
  /** Random per launch unless given (tests pass their own). */
  token?: string
  /** Bytes that may wait to be sent to one client before it is dropped (default 8 MB). */
  maxQueuedBytesPerClient?: number
}

export interface WebHost {
  /** The address to open, the token in its fragment (which a browser never sends to a server). */
  url: string
  port: number
  token: string
  close(): Promise<void>
}

/**
 * A tab that stops reading (a frozen or sleeping page, a stalled link) would otherwise make the host
 * hold every event for it. Past this many queued bytes the client is dropped: the page reconnects
 * and resyncs from the core, which is the source of truth.
 */
const MAX_QUEUED_BYTES_PER_CLIENT = 8 * 1024 * 1024

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])
export const isLoopbackHost = (host: string): boolean => LOOPBACK.has(host)

/**
 * The names a browser may use to reach the host, for the Host and Origin checks: a wildcard bind
 * (`0.0.0.0`, `::`) listens on every address of the machine, loopback included.
 */
function listeningNames(host: string): string[] {
  if (isLoopbackHost(host)) return [...LOOPBACK]
  if (host !== '0.0.0.0' && host !== '::') return [host]
  const addresses = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => host === '::' || entry.family === 'IPv4')
    .map((entry) => entry.address.split('%')[0])
  return [...new Set([...LOOPBACK, host, ...addresses])]
}

/** Serves the renderer and carries the contract over a WebSocket, behind a per-launch token. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1'
  const token = options.token ?? randomBytes(24).toString('base64url')
  const allowedHosts = new Set<string>()
  const allowedOrigins = new Set<string>()
  const staticFiles = createStaticFiles(options.staticDir)

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch(() => send(res, 500, 'Internal error'))
  })
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: 32 * 1024 * 1024,
    // Answer with the plain protocol: the token offered beside it is never echoed.
    handleProtocols: () => WS_PROTOCOL
  })

  // The built UI is public (the page holds no secret); only the socket, which drives the core, needs
  // the token, and the page presents it there. `/auth-check` lets a refused page say why.
  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req, allowedHosts)) return send(res, 421, 'Unknown host')
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed')
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname === '/auth-check') {
      return tokenMatches(token, tokenFromHeader(req))
        ? send(res, 204, '')
        : send(res, 401, 'Modus: this address needs the token printed when the server started.')
    }
    const file = await staticFiles.read(url.pathname)
    if (!file) return send(res, 404, 'Not found')
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store'
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  server.on('upgrade', (req, socket, head) => {
    const refuse = (status: number, text: string): void => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
    }
    if (!hostAllowed(req, allowedHosts)) return refuse(421, 'Misdirected Request')
    if (!originAllowed(req, allowedOrigins)) return refuse(403, 'Forbidden')
    if (!tokenMatches(token, tokenFromHandshake(req))) return refuse(401, 'Unauthorized')
    sockets.handleUpgrade(req, socket, head, (ws) =>
      attachClient(ws, options.core, options.maxQueuedBytesPerClient ?? MAX_QUEUED_BYTES_PER_CLIENT)
    )
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  for (const name of listeningNames(host)) {
    const hostPort = `${name.includes(':') ? `[${name}]` : name}:${port}`
    allowedHosts.add(hostPort)
    allowedOrigins.add(`http://${hostPort}`)
  }
  const urlHost = host.includes(':') ? `[${host}]` : host

  return {
    url: `http://${urlHost}:${port}/#token=${encodeURIComponent(token)}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate()
        sockets.close()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

function attachClient(ws: WebSocket, core: Core, maxQueuedBytes: number): void {
  const post = (message: ServerMessage): void => {
    if (ws.readyState !== ws.OPEN) return
    if (ws.bufferedAmount > maxQueuedBytes) {
      // Terminate, not close: a close frame would wait behind the queue the client is not reading.
      ws.terminate()
      return
    }
    ws.send(JSON.stringify(message))
  }
  const unsubscribe = core.bus.subscribe((name, payload) => post({ kind: 'event', name, payload }))
  ws.on('close', unsubscribe)
  ws.on('error', unsubscribe)
  ws.on('message', (data, isBinary) => {
    const parsed = isBinary ? null : parseClientMessage(rawText(data))
    if (!parsed) {
      post({ kind: 'protocol-error', message: 'Malformed message: expected {"id", "channel", "payload"} JSON.' })
      return
    }
    void core.handle(parsed.channel, parsed.payload).then((result) => post({ kind: 'response', id: parsed.id, result }))
  })
}

function send(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return void res.end()
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
  res.end(text)
}

/** A text frame's payload as a string, whichever form `ws` delivered it in. */
function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8')
}
