import { mkdtempSync, promises as fs, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHub, type McpHub } from '../../../src/main/core/mcp/hub'
import { createMcpPort } from '../../../src/main/core/mcp/mcp-port'
import type { ToolOutput } from '../../../src/main/core/ports/tool-types'
import { filesystemStdio, memoryStdio } from '../../support/mcp/servers'

const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)))
const writeJson = async (path: string, value: unknown) => {
  await fs.mkdir(join(path, '..'), { recursive: true })
  await fs.writeFile(path, JSON.stringify(value, null, 2))
}
const text = (output: ToolOutput) =>
  output.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n')
const ctx = () => ({ mode: 'code', signal: new AbortController().signal, modelSupportsImages: true })

async function waitFor<T>(what: string, probe: () => T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

let hub: McpHub | undefined
afterEach(async () => {
  await hub?.dispose()
  hub = undefined
})

async function openHub(servers: Record<string, unknown>, options: { trusted?: boolean } = {}) {
  const dataDir = tempDir('modus-mcp-data-')
  const workspace = tempDir('modus-mcp-ws-')
  await writeJson(join(dataDir, 'mcp.json'), { mcpServers: servers })
  hub = createMcpHub({
    dataDir,
    env: process.env,
    isTrusted: () => options.trusted ?? false,
    backoff: { baseMs: 50, maxMs: 200, maxRestarts: 1 }
  })
  await hub.open(workspace)
  await hub.settled()
  return { hub, dataDir, workspace, port: createMcpPort({ hub, modeServers: () => 'all' }) }
}

describe('official reference servers', () => {
  it('server-filesystem (the workspace as its folder argument, and as the root Modus announces): lists, writes and reads inside it, refuses a path outside as an error', async () => {
    const { hub, port, workspace: files } = await openHub({ files: filesystemStdio('${workspaceFolder}') })
    await fs.writeFile(join(files, 'notes.txt'), 'first line\n')
    const view = hub.snapshot().servers.find((server) => server.name === 'files')
    expect(view?.status, view?.error ?? view?.stderr).toBe('connected')
    expect(hub.tools().map((tool) => tool.exposedName)).toEqual(
      expect.arrayContaining(['mcp--files--read_text_file', 'mcp--files--write_file', 'mcp--files--list_directory'])
    )

    expect(text(await port.callTool('files', 'list_directory', { path: files }, ctx()))).toContain('[FILE] notes.txt')
    const written = await port.callTool(
      'files',
      'write_file',
      { path: join(files, 'new.txt'), content: 'written by the model' },
      ctx()
    )
    expect(written.isError).toBe(false)
    expect(await fs.readFile(join(files, 'new.txt'), 'utf8')).toBe('written by the model')
    expect(text(await port.callTool('files', 'read_text_file', { path: join(files, 'notes.txt') }, ctx()))).toContain(
      'first line'
    )

    const outside = await port.callTool('files', 'read_text_file', { path: '/etc/hostname' }, ctx())
    expect(outside.isError).toBe(true)
    expect(text(outside)).toMatch(/denied|outside allowed/i)
    const missingField = await port.callTool('files', 'read_text_file', {}, ctx())
    expect(missingField.isError).toBe(true)
    expect(text(missingField)).toContain("'path'")
  })

  it('server-memory (MEMORY_FILE_PATH): entities created through Modus are kept in the file and read back after a restart', async () => {
    const store = join(tempDir('modus-mcp-memory-'), 'graph.jsonl')
    const { hub, port } = await openHub({ memory: memoryStdio(store) })
    const created = await port.callTool(
      'memory',
      'create_entities',
      { entities: [{ name: 'Modus', entityType: 'project', observations: ['speaks MCP'] }] },
      ctx()
    )
    expect(created.isError, text(created)).toBe(false)
    expect(await fs.readFile(store, 'utf8')).toContain('"name":"Modus"')
    await hub.restart('memory')
    await waitFor('memory to reconnect', () =>
      hub.snapshot().servers.find((server) => server.name === 'memory' && server.status === 'connected')
    )
    const graph = text(await port.callTool('memory', 'read_graph', {}, ctx()))
    expect(graph).toContain('Modus')
    expect(graph).toContain('speaks MCP')
  })
})

describe('config files are followed while the workspace is open', () => {
  it('a server added to mcp.json starts, a broken edit is reported with its line and kept as written, a removed server stops', async () => {
    const store = join(tempDir('modus-mcp-memory-'), 'graph.jsonl')
    const { hub, dataDir } = await openHub({})
    const file = join(dataDir, 'mcp.json')
    await writeJson(file, { mcpServers: { memory: memoryStdio(store) } })
    await waitFor('the added server', () =>
      hub.snapshot().servers.find((server) => server.name === 'memory' && server.status === 'connected')
    )

    const broken = '{\n  "mcpServers": {\n    "memory": {,\n  }\n}\n'
    await fs.writeFile(file, broken)
    const problem = await waitFor('the problem', () => hub.snapshot().problems.find((entry) => entry.file === file))
    expect(problem.line).toBe(3)
    expect(problem.message).toContain('is not valid JSON')
    expect(await fs.readFile(file, 'utf8')).toBe(broken)
    // The server of a file being edited into shape keeps running.
    expect(hub.snapshot().servers.find((server) => server.name === 'memory')?.status).toBe('connected')

    await writeJson(file, { mcpServers: {} })
    await waitFor(
      'the server to stop',
      () => hub.snapshot().servers.length === 0 && hub.snapshot().problems.length === 0
    )
  })

  it("a trusted project's .roo/mcp.json created after opening starts its server", async () => {
    const store = join(tempDir('modus-mcp-memory-'), 'graph.jsonl')
    const { hub, workspace } = await openHub({}, { trusted: true })
    await writeJson(join(workspace, '.roo', 'mcp.json'), { mcpServers: { notes: memoryStdio(store) } })
    const started = await waitFor('the project server', () =>
      hub.snapshot().servers.find((server) => server.name === 'notes' && server.status === 'connected')
    )
    expect(started.scope).toBe('project')
  })
})
