import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createCore } from '../../src/main/core/create-core'
import { startWebHost, type WebHost } from '../../src/main/web/server'

const tmp = mkdtempSync(join(tmpdir(), 'modus-web-'))
const staticDir = join(tmp, 'renderer')
const workspace = join(tmp, 'project')
mkdirSync(staticDir)
mkdirSync(workspace)
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Modus</title>')
writeFileSync(join(tmp, 'secret.txt'), 'outside the static dir')
symlinkSync(join(tmp, 'secret.txt'), join(staticDir, 'leak.txt'))
symlinkSync(tmp, join(staticDir, 'up'))

let host: WebHost
let origin: string

beforeAll(async () => {
  const core = await createCore({ dataDir: join(tmp, 'data'), transport: 'web', version: 'test' })
  host = await startWebHost({ core, staticDir })
  origin = `http://127.0.0.1:${host.port}`
})
afterAll(() => host.close())

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${origin}${path}`, { headers })

/** Opens the socket as the page does: the token offered as a subprotocol beside `modus`. */
function connect(token: string | null, headers: Record<string, string> = {}, path = '/ws'): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const protocols = token === null ? ['modus'] : ['modus', `modus-token.${token}`]
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}${path}`, protocols, { headers })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

/** The raw text of the reply to request `id`; events the core pushes meanwhile are passed over. */
function rawReply(ws: WebSocket, id: number): Promise<string> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const text = (data as Buffer).toString()
      if ((JSON.parse(text) as { id?: number }).id !== id) return
      ws.off('message', onMessage)
      resolve(text)
    }
    ws.on('message', onMessage)
  })
}

function nextMessage(ws: WebSocket, predicate: (m: any) => boolean = () => true): Promise<any> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse((data as Buffer).toString())
      if (predicate(message)) {
        ws.off('message', onMessage)
        resolve(message)
      }
    }
    ws.on('message', onMessage)
  })
}

describe('web host over HTTP', () => {
  it('listens on loopback only and prints a URL carrying the token in its fragment', () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/#token=`))
    expect(host.token.length).toBeGreaterThanOrEqual(32)
    // The fragment is never sent to a server, so the token cannot reach one in a request line.
    expect(new URL(host.url).search).toBe('')
  })

  it('answers the token check only for the right token', async () => {
    expect((await get('/auth-check')).status).toBe(401)
    expect((await get('/auth-check', { 'x-modus-token': 'nope' })).status).toBe(401)
    expect((await get('/auth-check', { 'x-modus-token': host.token })).status).toBe(204)
  })

  it('serves the UI with a strict CSP and never sets a cookie (cookies are shared across ports)', async () => {
    const res = await get('/')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(res.headers.get('set-cookie')).toBeNull()
    const body = await res.text()
    expect(body).not.toContain(host.token)
  })

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve) => {
      request({ host: '127.0.0.1', port: host.port, path: '/', headers: { host: 'evil.example' } }, (res) =>
        resolve(res.statusCode ?? 0)
      ).end()
    })
    expect(status).toBe(421)
  })

  it('never serves files outside the renderer directory, links out included', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/leak.txt', '/up/secret.txt']) {
      const res = await get(path)
      expect(res.status).toBe(404)
    }
  })
})

describe('web host files kept in memory', () => {
  it('serves a file rebuilt while the host runs afresh, and a file swapped for a link out never', async () => {
    writeFileSync(join(staticDir, 'app.js'), 'first build')
    expect(await (await get('/app.js')).text()).toBe('first build')
    writeFileSync(join(staticDir, 'app.js'), 'second build, longer')
    expect(await (await get('/app.js')).text()).toBe('second build, longer')

    writeFileSync(join(staticDir, 'swapped.txt'), 'inside')
    expect(await (await get('/swapped.txt')).text()).toBe('inside')
    rmSync(join(staticDir, 'swapped.txt'))
    symlinkSync(join(tmp, 'secret.txt'), join(staticDir, 'swapped.txt'))
    expect((await get('/swapped.txt')).status).toBe(404)
  })
})

describe('web host over WebSocket', () => {
  it('refuses a socket without the token or with a wrong one', async () => {
    await expect(connect(null, { origin })).rejects.toThrow('401')
    await expect(connect('nope', { origin })).rejects.toThrow('401')
  })

  it('no longer takes the token from the query string or a cookie', async () => {
    await expect(connect(null, { origin }, `/ws?token=${host.token}`)).rejects.toThrow('401')
    await expect(connect(null, { origin, cookie: `modus_token=${host.token}` })).rejects.toThrow('401')
  })

  it('refuses a socket opened from a foreign origin, or with no Origin, even with the token', async () => {
    await expect(connect(host.token, { origin: 'http://evil.example' })).rejects.toThrow('403')
    await expect(connect(host.token, { origin: 'http://127.0.0.1:1' })).rejects.toThrow('403')
    await expect(connect(host.token)).rejects.toThrow('403')
  })

  it('answers with the plain protocol, never echoing the token', async () => {
    const ws = await connect(host.token, { origin })
    expect(ws.protocol).toBe('modus')
    ws.close()
  })

  it('carries requests and events of the contract', async () => {
    const ws = await connect(host.token, { origin })
    ws.send(JSON.stringify({ id: 1, channel: 'app:info', payload: {} }))
    expect(await nextMessage(ws)).toMatchObject({
      kind: 'response',
      id: 1,
      result: { ok: true, value: { transport: 'web' } }
    })

    const opened = nextMessage(ws, (m) => m.kind === 'event')
    ws.send(JSON.stringify({ id: 2, channel: 'workspace:open', payload: { path: workspace } }))
    expect(await opened).toMatchObject({ kind: 'event', name: 'workspace:opened', payload: { name: 'project' } })
    ws.close()
  })

  it('answers malformed frames and payloads with clear errors and keeps serving', async () => {
    const ws = await connect(host.token, { origin })
    ws.send('{not json')
    expect(await nextMessage(ws)).toMatchObject({ kind: 'protocol-error' })
    ws.send(JSON.stringify({ id: 3, channel: 'workspace:open', payload: { path: 7 } }))
    expect(await nextMessage(ws)).toMatchObject({ id: 3, result: { ok: false, error: { code: 'invalid_payload' } } })
    ws.send(JSON.stringify({ id: 4, channel: 'shell:exec', payload: {} }))
    expect(await nextMessage(ws)).toMatchObject({ id: 4, result: { ok: false, error: { code: 'unknown_channel' } } })
    ws.send(JSON.stringify({ id: 5, channel: 'workspace:open', payload: { path: join(tmp, 'missing') } }))
    expect(await nextMessage(ws)).toMatchObject({ id: 5, result: { ok: false, error: { code: 'not_found' } } })
    ws.send(JSON.stringify({ id: 6, channel: 'app:info', payload: {} }))
    expect(await nextMessage(ws)).toMatchObject({ id: 6, result: { ok: true } })
    ws.close()
  })
})

describe('web host bounds and addresses', () => {
  it('answers a 31 MB path with a short error, not an echo of it', async () => {
    const ws = await connect(host.token, { origin })
    ws.send(JSON.stringify({ id: 9, channel: 'workspace:open', payload: { path: `/${'a'.repeat(31 * 1024 * 1024)}` } }))
    const raw = await rawReply(ws, 9)
    expect(JSON.parse(raw)).toMatchObject({ id: 9, result: { ok: false, error: { code: 'invalid_payload' } } })
    expect(raw.length).toBeLessThan(4000)
    // Any other error quoting its input is cut short too.
    ws.send(JSON.stringify({ id: 10, channel: 'workspace:open', payload: { path: `/${'b'.repeat(4000)}` } }))
    const second = await rawReply(ws, 10)
    expect(JSON.parse(second)).toMatchObject({ id: 10, result: { ok: false, error: { code: 'not_found' } } })
    expect(second.length).toBeLessThan(2500)
    ws.close()
  })

  it('bound to 0.0.0.0, accepts the addresses it listens on and localhost, and still refuses a foreign Host', async () => {
    const core = await createCore({ dataDir: join(tmp, 'data-any'), transport: 'web', version: 'test' })
    const wide = await startWebHost({ core, staticDir, host: '0.0.0.0' })
    try {
      const { request } = await import('node:http')
      const status = (address: string, hostHeader: string) =>
        new Promise<number>((resolve) => {
          request({ host: address, port: wide.port, path: '/', headers: { host: hostHeader } }, (res) =>
            resolve(res.statusCode ?? 0)
          ).end()
        })
      expect(await status('127.0.0.1', `localhost:${wide.port}`)).toBe(200)
      expect(await status('127.0.0.1', `127.0.0.1:${wide.port}`)).toBe(200)
      const own = Object.values(networkInterfaces())
        .flatMap((entries) => entries ?? [])
        .filter((entry) => entry.family === 'IPv4' && !entry.internal)
      for (const entry of own) expect(await status(entry.address, `${entry.address}:${wide.port}`)).toBe(200)
      expect(await status('127.0.0.1', `evil.example:${wide.port}`)).toBe(421)
    } finally {
      await wide.close()
      await core.dispose()
    }
  })

  it('refuses a provider base URL that is not http(s)', async () => {
    const ws = await connect(host.token, { origin })
    const provider = { id: 'x', kind: 'openai-compatible', label: 'X', model: 'm' }
    for (const [id, baseUrl] of [
      [20, 'javascript:alert(document.domain)'],
      [21, 'file:///etc/passwd'],
      [22, 'data:text/html,hi']
    ] as const) {
      ws.send(JSON.stringify({ id, channel: 'settings:saveProvider', payload: { ...provider, baseUrl } }))
      expect(await nextMessage(ws, (m) => m.id === id)).toMatchObject({
        result: { ok: false, error: { code: 'invalid_payload' } }
      })
    }
    ws.close()
  })
})
