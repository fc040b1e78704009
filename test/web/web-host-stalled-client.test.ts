import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createCore, type Core } from '../../src/main/core/create-core'
import { startWebHost, type WebHost } from '../../src/main/web/server'

// A tab that stops reading must not make the host keep every event for it. The host runs in this
// test's own process, so its resident memory is what the test measures.

const EVENTS = 300
const EVENT_TEXT = 'x'.repeat(1024 * 1024)
const MB = 1024 * 1024

let core: Core
let host: WebHost

beforeAll(async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'modus-web-stall-'))
  mkdirSync(join(tmp, 'renderer'))
  writeFileSync(join(tmp, 'renderer', 'index.html'), '<!doctype html><title>Modus</title>')
  core = await createCore({ dataDir: join(tmp, 'data'), transport: 'web', version: 'test' })
  host = await startWebHost({ core, staticDir: join(tmp, 'renderer') })
})
afterAll(() => host.close())

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws`, ['modus', `modus-token.${host.token}`], {
      origin: `http://127.0.0.1:${host.port}`
    })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

describe('web host with a client that stops reading', () => {
  it('drops the stalled client once its queue passes the bound; memory stays bounded and a reading client gets everything', async () => {
    const stalled = await connect()
    const reading = await connect()
    let readingGot = 0
    let stalledGot = 0
    reading.on('message', (data) => {
      if ((JSON.parse((data as Buffer).toString()) as { kind: string }).kind === 'event') readingGot++
    })
    stalled.on('message', () => stalledGot++)
    const stalledClosed = new Promise<void>((done) => stalled.once('close', () => done()))
    stalled.pause()

    const baseline = process.memoryUsage().rss
    let peak = baseline
    for (let i = 0; i < EVENTS; i++) {
      core.bus.emit('task:event', { taskId: 'stall', event: { type: 'text-delta', messageId: 'm1', text: EVENT_TEXT } })
      await new Promise((done) => setTimeout(done, 1))
      peak = Math.max(peak, process.memoryUsage().rss)
    }
    const grown = (peak - baseline) / MB
    // Unbounded, the stalled client alone holds all 300 MB of frames; the bound is 8 MB per client,
    // plus what the kernel buffers and garbage not yet collected: 120 MB leaves a wide margin.
    expect(grown, `RSS grew by ${grown.toFixed(0)} MB while ${EVENTS} MB went out`).toBeLessThan(120)

    stalled.resume()
    await stalledClosed
    expect(stalledGot).toBeLessThan(EVENTS)
    while (readingGot < EVENTS && reading.readyState === WebSocket.OPEN)
      await new Promise((done) => setTimeout(done, 20))
    expect(readingGot).toBe(EVENTS)
    reading.close()
  }, 180_000)
})
