import { createServer, request, type Server } from 'node:http'
import {
  connect,
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket
} from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startEgressProxy, type EgressProxy } from '../../../src/main/core/browser/egress-proxy'

const listen = async <T extends Server | TcpServer>(server: T): Promise<T> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}
const portOf = (server: Server | TcpServer) => (server.address() as AddressInfo).port
const closeServer = (server: Server | TcpServer) => new Promise((resolve) => server.close(resolve))

/** Sends raw bytes to the proxy and collects what comes back until `until` matches or the socket ends. */
function exchange(proxy: EgressProxy, data: string, until: RegExp): Promise<{ text: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(proxy.server).port), '127.0.0.1', () => socket.write(data))
    let text = ''
    const done = () => resolve({ text, socket })
    socket.on('data', (chunk) => {
      text += chunk.toString()
      if (until.test(text)) done()
    })
    socket.on('end', done)
    socket.on('error', reject)
  })
}

describe('the browser egress proxy', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  const start = async () => {
    const proxy = await startEgressProxy()
    cleanups.push(() => proxy.close())
    return { proxy }
  }
  const serve = async <T extends Server | TcpServer>(server: T) => {
    cleanups.push(() => closeServer(server))
    return listen(server)
  }

  it('listens on 127.0.0.1 only and forwards plain HTTP, bodies both ways, only to an allowed host and port', async () => {
    const { proxy } = await start()
    expect(proxy.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const hits: string[] = []
    const upstream = await serve(
      createServer((req, res) => {
        let body = ''
        req.on('data', (chunk) => (body += chunk))
        req.on('end', () => {
          hits.push(`${req.method} ${req.url} ${body}`)
          res.writeHead(201, { 'x-from': 'upstream' }).end(`echo:${body}`)
        })
      })
    )
    const target = `http://127.0.0.1:${portOf(upstream)}/path?q=1`
    const post = (): Promise<{ status: number; header: unknown; body: string }> =>
      new Promise((resolve, reject) => {
        const proxied = new URL(proxy.server)
        const req = request({ host: proxied.hostname, port: proxied.port, method: 'POST', path: target }, (res) => {
          let body = ''
          res.on('data', (chunk) => (body += chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, header: res.headers['x-from'], body }))
        })
        req.on('error', reject)
        req.end('payload')
      })

    expect((await post()).status).toBe(403)
    expect(hits).toEqual([])

    proxy.allow(`http://127.0.0.1:${portOf(upstream)}/other`)
    expect(await post()).toEqual({ status: 201, header: 'upstream', body: 'echo:payload' })
    expect(hits).toEqual(['POST /path?q=1 payload'])
  })

  it('survives a server that resets mid-answer and a browser that drops mid-upload, and goes on forwarding', async () => {
    const { proxy } = await start()
    const upstream = await serve(
      createServer((req, res) => {
        if (req.url === '/reset')
          return void (
            res.writeHead(200, { 'content-length': '100' }).write('part'),
            setTimeout(() => req.socket.destroy(), 20)
          )
        if (req.url === '/slow-upload') return void req.on('data', () => undefined)
        res.end('fine')
      })
    )
    const base = `127.0.0.1:${portOf(upstream)}`
    proxy.allow(`http://${base}`)
    const reset = await exchange(proxy, `GET http://${base}/reset HTTP/1.1\r\nHost: ${base}\r\n\r\n`, /part/)
    await new Promise((resolve) => reset.socket.once('close', resolve))
    const upload = connect(Number(new URL(proxy.server).port), '127.0.0.1', () =>
      upload.write(`POST http://${base}/slow-upload HTTP/1.1\r\nHost: ${base}\r\nContent-Length: 1000\r\n\r\nabc`)
    )
    upload.on('error', () => undefined)
    await new Promise((resolve) => setTimeout(resolve, 100))
    upload.destroy()
    await new Promise((resolve) => setTimeout(resolve, 100))
    const after = await exchange(
      proxy,
      `GET http://${base}/ HTTP/1.1\r\nHost: ${base}\r\nConnection: close\r\n\r\n`,
      /fine/
    )
    expect(after.text).toMatch(/^HTTP\/1\.1 200[\s\S]*fine$/)
    after.socket.destroy()
  })

  it('tunnels CONNECT only to an allowed host and port (https and wss are judged by the same destination)', async () => {
    const { proxy } = await start()
    let connections = 0
    const echo = await serve(
      createTcpServer((socket) => {
        connections++
        socket.on('data', (chunk) => socket.write(`echo:${chunk.toString()}`))
      })
    )
    const authority = `127.0.0.1:${portOf(echo)}`
    const denied = await exchange(proxy, `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`, /\r\n\r\n/)
    expect(denied.text).toMatch(/^HTTP\/1\.1 403/)
    denied.socket.destroy()

    proxy.allow(`https://${authority}/`)
    const opened = await exchange(proxy, `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`, /\r\n\r\n/)
    expect(opened.text).toMatch(/^HTTP\/1\.1 200/)
    const echoed = new Promise<string>((resolve) => opened.socket.once('data', (chunk) => resolve(chunk.toString())))
    opened.socket.write('hello')
    expect(await echoed).toBe('echo:hello')
    expect(connections).toBe(1)

    // Closing the proxy cuts the open tunnel and stops listening.
    const cut = new Promise((resolve) => opened.socket.once('close', resolve))
    await proxy.close()
    await cut
    await expect(exchange(proxy, 'GET / HTTP/1.1\r\n\r\n', /./)).rejects.toThrow(/ECONNREFUSED/)
  })

  it('passes a WebSocket upgrade sent with an absolute URI only to an allowed host and port', async () => {
    const { proxy } = await start()
    const upgrades: string[] = []
    const upstream = await serve(createServer((_req, res) => res.end()))
    upstream.on('upgrade', (req, socket) => {
      upgrades.push(`${req.url} ${req.headers['sec-websocket-key']}`)
      socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n')
    })
    const url = `ws://127.0.0.1:${portOf(upstream)}/socket?x=1`
    const handshake = `GET ${url} HTTP/1.1\r\nHost: 127.0.0.1:${portOf(upstream)}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: abc\r\nSec-WebSocket-Version: 13\r\n\r\n`

    const denied = await exchange(proxy, handshake, /\r\n\r\n/)
    expect(denied.text).toMatch(/^HTTP\/1\.1 403/)
    denied.socket.destroy()
    expect(upgrades).toEqual([])

    proxy.allow(`http://127.0.0.1:${portOf(upstream)}`)
    const opened = await exchange(proxy, handshake, /\r\n\r\n/)
    expect(opened.text).toMatch(/^HTTP\/1\.1 101/)
    opened.socket.destroy()
    expect(upgrades).toEqual(['/socket?x=1 abc'])
  })
})
