// The browser's only way out: Chromium is launched with this proxy, so every connection it makes —
// including those Playwright's routes never see (redirect hops, speculation-rules prefetch and
// prerender, preconnect) — reaches only a destination a guarded request was let through to.
// Independent of the Chromium build: some builds ignore the preference that turns prediction off.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'

export interface EgressProxy {
  /** For Playwright's `proxy.server`. */
  readonly server: string
  /** Lets the browser reach the host and port of `url` (http/https/ws/wss) from now on. */
  allow(url: string): void
  /** Stops listening and cuts every connection still open. */
  close(): Promise<void>
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'ws:': '80', 'https:': '443', 'wss:': '443' }

/** Where a connection goes — all a proxy can see of a tunnelled (https, wss) request. */
function destinationOf(url: URL): string | null {
  const port = url.port || DEFAULT_PORTS[url.protocol]
  return port ? `${url.hostname.toLowerCase()}:${port}` : null
}

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** The socket address for a URL's host: IPv6 literals lose their brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1')

const refuse = (socket: Duplex): void =>
  void socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')

/** Headers meant for the proxy, not the server. */
function forwardedHeaders(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const headers = { ...req.headers }
  delete headers['proxy-connection']
  delete headers['proxy-authorization']
  return headers
}

/** Starts the proxy on 127.0.0.1 (a free port). */
export async function startEgressProxy(): Promise<EgressProxy> {
  const allowed = new Set<string>()
  const sockets = new Set<Duplex>()
  const track = (socket: Duplex) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    // A reset on either side ends that pair only; the proxy goes on.
    socket.on('error', () => socket.destroy())
  }
  const permitted = (url: URL | null): url is URL => {
    const destination = url && destinationOf(url)
    return !!destination && allowed.has(destination)
  }

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const target = parse(req.url ?? '')
    if (!permitted(target) || target.protocol !== 'http:')
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end('Blocked by the browser egress guard')
    const upstream = httpRequest(
      {
        host: hostOf(target),
        port: target.port || 80,
        method: req.method,
        path: target.pathname + target.search,
        headers: forwardedHeaders(req)
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        // A server that drops mid-answer: the browser's request is cut too, not left waiting.
        answer.on('error', () => res.destroy())
        answer.on('close', () => void (answer.complete || res.destroy()))
      }
    )
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()))
    // A browser that drops mid-request: the server's side is cut too.
    req.on('error', () => upstream.destroy())
    res.on('close', () => void (res.writableFinished || upstream.destroy()))
    req.pipe(upstream)
  }

  /** Joins the browser's socket to `target` once it answers, first sending each side its opening bytes. */
  const splice = (client: Duplex, target: URL, head: Buffer, toServer: string, toClient: string) => {
    const server: Socket = connect(Number(target.port || DEFAULT_PORTS[target.protocol]), hostOf(target), () => {
      if (toClient) client.write(toClient)
      server.write(toServer)
      if (head.length > 0) server.write(head)
      server.pipe(client).pipe(server)
    })
    track(server)
    server.on('close', () => client.destroy())
    client.on('close', () => server.destroy())
  }

  const proxy = createServer(forward)
  proxy.on('connection', track)
  // CONNECT host:port — https and wss, and ws, which Chromium tunnels through a proxy too.
  proxy.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client)
    const target = parse(`https://${req.url ?? ''}`)
    if (!permitted(target)) return refuse(client)
    splice(client, target, head, '', 'HTTP/1.1 200 Connection Established\r\n\r\n')
  })
  // A WebSocket upgrade sent to the proxy with an absolute URI: the request is replayed to the server.
  proxy.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client)
    const target = parse(req.url ?? '')
    if (!permitted(target)) return refuse(client)
    const headers = Object.entries(forwardedHeaders(req)).flatMap(([name, value]) =>
      [value ?? []].flat().map((one) => `${name}: ${one}\r\n`)
    )
    splice(
      client,
      target,
      head,
      `${req.method} ${target.pathname}${target.search} HTTP/1.1\r\n${headers.join('')}\r\n`,
      ''
    )
  })
  // Loopback only: nothing beyond this machine may use it.
  await new Promise<void>((resolve, reject) => proxy.once('error', reject).listen(0, '127.0.0.1', () => resolve()))
  const { port } = proxy.address() as AddressInfo

  return {
    server: `http://127.0.0.1:${port}`,
    allow(url) {
      const target = parse(url)
      const destination = target && destinationOf(target)
      if (destination) allowed.add(destination)
    },
    async close() {
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    }
  }
}
