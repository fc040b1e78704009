import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
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

let host: WebHost
let origin: string

beforeAll(async () => {
  const core = await createCore({ dataDir: join(tmp, 'data'), transport: 'web', version: 'test' })
  host = await startWebHost({ core, staticDir })
  origin = `http://127.0.0.1:${host.port}`
})
afterAll(() => host.close())

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${origin}${path}`, { headers })

function connect(query: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws${query}`, { headers })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

function nextMessage(ws: WebSocket, predicate: (m: any) => boolean = () => true): Promise<any> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(data.toString())
      if (predicate(message)) {
        ws.off('message', onMessage)
        resolve(message)
      }
    }
    ws.on('message', onMessage)
  })
}

describe('web host over HTTP', () => {
  it('listens on loopback only and prints a URL carrying the token', () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/\\?token=`))
    expect(host.token.length).toBeGreaterThanOrEqual(32)
  })

  it('refuses requests without the token or with a wrong one', async () => {
    expect((await get('/')).status).toBe(401)
    expect((await get('/?token=nope')).status).toBe(401)
  })

  it('serves the UI with the token, a strict CSP and a session cookie', async () => {
    const res = await get(`/?token=${host.token}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(res.headers.get('set-cookie')).toMatch(/modus_token=.*HttpOnly; SameSite=Strict/)
    const cookie = res.headers.get('set-cookie')!.split(';')[0]
    expect((await get('/index.html', { cookie })).status).toBe(200)
  })

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve) => {
      request({ host: '127.0.0.1', port: host.port, path: `/?token=${host.token}`, headers: { host: 'evil.example' } }, (res) =>
        resolve(res.statusCode ?? 0)
      ).end()
    })
    expect(status).toBe(421)
  })

  it('never serves files outside the renderer directory', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
      const res = await get(`${path}?token=${host.token}`)
      expect(res.status).toBe(404)
    }
  })
})

describe('web host over WebSocket', () => {
  it('refuses a socket without the token', async () => {
    await expect(connect('')).rejects.toThrow('401')
  })

  it('refuses a socket opened from a foreign origin, even with the token', async () => {
    await expect(connect(`?token=${host.token}`, { origin: 'http://evil.example' })).rejects.toThrow('403')
  })

  it('carries requests and events of the contract', async () => {
    const ws = await connect(`?token=${host.token}`, { origin })
    ws.send(JSON.stringify({ id: 1, channel: 'app:info', payload: {} }))
    expect(await nextMessage(ws)).toMatchObject({ kind: 'response', id: 1, result: { ok: true, value: { transport: 'web' } } })

    const opened = nextMessage(ws, (m) => m.kind === 'event')
    ws.send(JSON.stringify({ id: 2, channel: 'workspace:open', payload: { path: workspace } }))
    expect(await opened).toMatchObject({ kind: 'event', name: 'workspace:opened', payload: { name: 'project' } })
    ws.close()
  })

  it('answers malformed frames and payloads with clear errors and keeps serving', async () => {
    const ws = await connect(`?token=${host.token}`, { origin })
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
