import { getEventListeners } from 'node:events'
import { existsSync, mkdtempSync, promises as fs, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHub, type McpHub } from '../../../src/main/core/mcp/hub'
import { createMcpPort } from '../../../src/main/core/mcp/mcp-port'
import { createSearchMcpToolsExecutor } from '../../../src/main/core/tools/search-mcp-tools'
import { everythingStdio } from '../../support/mcp/servers'

const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)))
const GATED = join(__dirname, '../../support/mcp/gated-server.mjs')
const textOf = (output: { content: Array<{ type: string; text?: string }> }) =>
  output.content.map((b) => b.text ?? '').join('\n')

async function waitFor<T>(what: string, probe: () => T | undefined | false, ms = 30_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((done) => setTimeout(done, 25))
  }
}

let hub: McpHub | undefined
afterEach(async () => {
  await hub?.dispose()
  hub = undefined
})

async function openHub(servers: Record<string, unknown>) {
  const dataDir = tempDir('modus-mcp-bg-')
  await fs.writeFile(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: servers }))
  hub = createMcpHub({ dataDir, env: process.env, isTrusted: () => true, watchConfig: false })
  await hub.open(dataDir)
  return { hub, dataDir, port: createMcpPort({ hub, modeServers: () => 'all' }) }
}

const ctx = (mode = 'code') =>
  ({ mode, signal: new AbortController().signal, modelSupportsImages: false, taskId: 't' }) as never

describe('MCP servers start in the background', () => {
  it('opening returns while a server is still starting; search_mcp_tools names it as starting, then finds its tools once it is up', async () => {
    const gate = join(tempDir('modus-mcp-gate-'), 'open')
    const { hub, port } = await openHub({ slow: { command: process.execPath, args: [GATED, gate] } })
    expect(hub.snapshot().servers.map((s) => [s.name, s.status])).toEqual([['slow', 'starting']])
    const search = createSearchMcpToolsExecutor(port)
    expect(textOf(await search.execute({ query: 'echo' }, ctx()))).toBe(
      'No MCP server with tools is connected in this mode.\n\nMCP servers not ready: still starting: slow (their tools appear once they are up; ask again later).'
    )
    expect(textOf(await port.callTool('slow', 'echo', { message: 'x' }, ctx()))).toMatch(
      /^The MCP server "slow" is still starting/
    )
    writeFileSync(gate, '')
    await waitFor('the slow server', () => hub.snapshot().servers[0].status === 'connected')
    const found = textOf(await search.execute({ query: 'echo' }, ctx()))
    expect(found).toContain('## server_name: slow, tool_name: echo')
    expect(found).not.toContain('not ready')
  })

  it('closing while a server is still starting ends its process: nothing is left running', async () => {
    const gate = join(tempDir('modus-mcp-gate-'), 'open')
    const { hub } = await openHub({ slow: { command: process.execPath, args: [GATED, gate] } })
    const pidFile = `${gate}.pid`
    const pid = Number(await waitFor('the server to start', () => existsSync(pidFile) && readFileSync(pidFile, 'utf8')))
    const running = () => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    expect(running()).toBe(true)
    expect(hub.snapshot().servers[0].status).toBe('starting')
    await hub.dispose()
    await waitFor('the server process to end', () => !running())
  })

  it('a server that fails to start is one line in the result that would have used it', async () => {
    const { hub, port } = await openHub({ broken: { command: '/nonexistent/modus-mcp-server' } })
    await hub.settled()
    expect(hub.snapshot().servers[0]).toMatchObject({ name: 'broken', status: 'failed' })
    const used = await port.callTool('broken', 'echo', {}, ctx())
    expect(used.isError).toBe(true)
    expect(textOf(used)).toMatch(/^The MCP server "broken" failed to start: .+\.$/)
    expect(textOf(await createSearchMcpToolsExecutor(port).execute({ query: '' }, ctx()))).toMatch(
      /MCP servers not ready: broken failed to start \(.+\)\.$/
    )
  })

  it('many calls on one task signal leave no abort listener on it', async () => {
    const { hub, port } = await openHub({ everything: everythingStdio() })
    await hub.settled()
    const task = new AbortController()
    for (let i = 0; i < 300; i++) {
      const out = await port.callTool(
        'everything',
        'echo',
        { message: `m${i}` },
        { mode: 'code', signal: task.signal, modelSupportsImages: false }
      )
      expect(textOf(out)).toBe(`Echo: m${i}`)
    }
    expect(getEventListeners(task.signal, 'abort').length).toBe(0)
  })
})
