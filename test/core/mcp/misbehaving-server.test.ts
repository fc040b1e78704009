import { mkdtempSync, promises as fs, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHub, type McpHub } from '../../../src/main/core/mcp/hub'
import { createMcpPort } from '../../../src/main/core/mcp/mcp-port'
import type { ToolOutput } from '../../../src/main/core/ports/tool-types'
import { misbehavingStdio } from '../../support/mcp/servers'

// The server is untrusted: whatever it sends, the model gets a result it can read and a request the
// providers accept, and the task goes on.

const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)))
const MB = 1024 * 1024
const texts = (out: ToolOutput) => out.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
const images = (out: ToolOutput) => out.content.flatMap((part) => (part.type === 'image' ? [part] : []))

describe('a misbehaving MCP server', () => {
  let hub: McpHub | undefined
  afterEach(async () => {
    await hub?.dispose()
    hub = undefined
  })

  const open = async () => {
    const dataDir = tempDir('modus-mcp-bad-data-')
    const log = join(dataDir, 'cancelled.jsonl')
    await fs.writeFile(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { bad: misbehavingStdio(log) } }))
    hub = createMcpHub({
      dataDir,
      env: process.env,
      isTrusted: () => false,
      backoff: { baseMs: 50, maxMs: 200, maxRestarts: 2 }
    })
    await hub.open(tempDir('modus-mcp-bad-ws-'))
    await hub.settled()
    expect(hub.snapshot().servers.find((server) => server.name === 'bad')?.status).toBe('connected')
    const port = createMcpPort({ hub, modeServers: () => 'all' })
    const call = (tool: string, signal = new AbortController().signal) =>
      port.callTool('bad', tool, {}, { mode: 'code', signal, modelSupportsImages: true })
    return { call, log }
  }

  it('never passes an image larger than a model takes, nor more image data than one result may carry', async () => {
    const { call } = await open()
    const huge = await call('huge-image')
    expect(images(huge)).toEqual([])
    expect(texts(huge)).toEqual([
      'one huge image',
      expect.stringMatching(/^\[image image\/png, \d+ bytes: larger than the 5 MB a model takes, not passed\]$/)
    ])

    const several = await call('several-images')
    expect(images(several).map((image) => image.dataBase64.length)).toEqual([3 * MB, 3 * MB])
    expect(several.content.slice(2)).toEqual([
      { type: 'text', text: expect.stringMatching(/over the 8 MB of images one result may carry, not passed/) },
      { type: 'text', text: expect.stringMatching(/over the 8 MB of images one result may carry, not passed/) }
    ])
  })

  it('cuts a flood of text and says briefly where a malformed result breaks the schema', async () => {
    const { call } = await open()
    const flood = await call('huge-text')
    expect(flood.content).toHaveLength(1)
    expect(texts(flood)[0].length).toBeLessThan(100_200)
    expect(texts(flood)[0]).toMatch(/\[… \d+ more characters cut\]$/)

    const malformed = await call('malformed')
    // The SDK refuses it against the MCP schema; the model reads where, not a dump of the checker's output.
    expect(malformed.isError).toBe(true)
    expect(texts(malformed)).toEqual([
      expect.stringMatching(
        /^The MCP server "bad" failed on "malformed": its result does not follow the MCP schema \(content\.0: [^)]+\)$/
      )
    ])
  })

  it('reports a crash mid-call as an error result naming the server and tool', async () => {
    const { call } = await open()
    const crashed = await call('crash')
    expect(crashed.isError).toBe(true)
    expect(texts(crashed).join('\n')).toMatch(/The MCP server "bad" failed on "crash": .+/)
  })

  it('tells the server when a waiting call is cancelled', async () => {
    const { call, log } = await open()
    const cancel = new AbortController()
    const pending = call('hang', cancel.signal)
    setTimeout(() => cancel.abort(new Error('cancelled by the user')), 200)
    await expect(pending).rejects.toBeTruthy()
    const deadline = Date.now() + 10_000
    let lines: string[] = []
    while (Date.now() < deadline && lines.length === 0) {
      lines = (await fs.readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean)
      if (lines.length === 0) await new Promise((done) => setTimeout(done, 25))
    }
    expect(lines.map((line) => JSON.parse(line) as { requestId: unknown })).toEqual([
      expect.objectContaining({ requestId: expect.anything() })
    ])
  })
})
