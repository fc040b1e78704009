import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createCore } from '../../src/main/core/create-core'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { makeRepo, userGitState } from '../core/worktrees/git-repo'

const tmp = mkdtempSync(join(tmpdir(), 'modus-web-wt-'))
const dataDir = join(tmp, 'data')
let host: WebHost
let repo: string

beforeAll(async () => {
  repo = await makeRepo({ 'a.txt': 'one\n', '.gitignore': '.env\n' }, { '.env': 'SECRET=1\n' })
  // No provider anywhere: a task cannot start, which the contract must say without leaving anything behind.
  const core = await createCore({ dataDir, transport: 'web', version: 'test', env: { HOME: tmp } })
  host = await startWebHost({ core, staticDir: tmp })
})
afterAll(() => host.close())

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws`, ['modus', `modus-token.${host.token}`], {
      headers: { origin: `http://127.0.0.1:${host.port}` }
    })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

let nextId = 1
function request(ws: WebSocket, channel: string, payload: unknown): Promise<any> {
  const id = nextId++
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse((data as Buffer).toString())
      if (message.kind !== 'response' || message.id !== id) return
      ws.off('message', onMessage)
      resolve(message.result)
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ id, channel, payload }))
  })
}

describe('worktrees:* over the web host', { timeout: 60_000 }, () => {
  it('answers settings, list and orphans for the open repository, and a start that cannot run leaves nothing', async () => {
    const ws = await connect()
    expect((await request(ws, 'workspace:open', { path: repo })).ok).toBe(true)
    const before = userGitState(repo)

    const settings = await request(ws, 'worktrees:settings', {})
    expect(settings).toMatchObject({
      ok: true,
      value: { repoRoot: repo, copyFiles: [], setupCommand: '', maxConcurrent: 3, offeredFiles: ['.env'] }
    })
    const saved = await request(ws, 'worktrees:saveSettings', {
      copyFiles: ['.env'],
      setupCommand: 'npm ci',
      maxConcurrent: 2,
      pruneAfterDays: 7,
      maxTotalMb: 500
    })
    expect(saved).toMatchObject({ ok: true, value: { copyFiles: ['.env'], setupCommand: 'npm ci', maxConcurrent: 2 } })
    expect((await request(ws, 'worktrees:settings', {})).value.maxConcurrent).toBe(2)
    // The payload is checked by the contract: a limit of 0 is refused.
    expect((await request(ws, 'worktrees:saveSettings', { ...saved.value, maxConcurrent: 0 })).ok).toBe(false)

    expect(await request(ws, 'worktrees:list', {})).toEqual({ ok: true, value: [] })
    expect(await request(ws, 'worktrees:orphans', {})).toEqual({ ok: true, value: [] })

    const started = await request(ws, 'worktrees:start', { text: 'fix it', name: 'fix' })
    expect(started.ok).toBe(false)
    expect(JSON.stringify(started.error)).toContain('start_failed')
    expect(await request(ws, 'worktrees:list', {})).toEqual({ ok: true, value: [] })
    const worktreesDir = join(dataDir, 'worktrees')
    const repoDirs = existsSync(worktreesDir) ? readdirSync(worktreesDir).filter((name) => !name.startsWith('.')) : []
    for (const dir of repoDirs.filter((name) => name !== 'settings.json'))
      expect(readdirSync(join(worktreesDir, dir))).toEqual([])
    expect(userGitState(repo)).toEqual(before)
    ws.close()
  })
})
