import { mkdtempSync, promises as fs, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMcpHub, type McpHub } from '../../../src/main/core/mcp/hub'
import { createDeferredDisposals } from '../../support/deferred-disposals'
import { createMcpPort } from '../../../src/main/core/mcp/mcp-port'
import { everythingStdio, startEverythingHttp, type HttpServer } from '../../support/mcp/servers'

const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)))
const writeJson = async (path: string, value: unknown) => {
  await fs.mkdir(join(path, '..'), { recursive: true })
  await fs.writeFile(path, JSON.stringify(value, null, 2))
}
const FAST_BACKOFF = { baseMs: 50, maxMs: 200, maxRestarts: 2 }

async function waitFor<T>(what: string, probe: () => T | undefined | false, ms = 15_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((done) => setTimeout(done, 25))
  }
}

describe('MCP hub against the reference server', () => {
  let hub: McpHub | undefined
  const disposals = createDeferredDisposals()
  afterEach(() => {
    if (hub) disposals.add(hub.dispose())
    hub = undefined
  })
  afterAll(() => disposals.settle())

  const openHub = async (
    servers: Record<string, unknown>,
    options: { trusted?: boolean; project?: Record<string, unknown> } = {}
  ) => {
    const dataDir = tempDir('modus-mcp-data-')
    const workspace = tempDir('modus-mcp-ws-')
    await writeJson(join(dataDir, 'mcp.json'), { mcpServers: servers })
    if (options.project) await writeJson(join(workspace, '.modus', 'mcp.json'), { mcpServers: options.project })
    hub = createMcpHub({
      dataDir,
      env: { ...process.env, MCP_TEST_LABEL: 'from-env' },
      isTrusted: () => options.trusted ?? false,
      backoff: FAST_BACKOFF
    })
    await hub.open(workspace)
    await hub.settled()
    return { hub, dataDir, workspace }
  }
  const signal = () => new AbortController().signal

  it('connects over stdio, lists tools and resources, calls a tool and reads a resource', async () => {
    const { hub } = await openHub({ everything: everythingStdio() })
    const view = hub.snapshot().servers.find((server) => server.name === 'everything')
    expect(view?.status, view?.error).toBe('connected')
    expect(view?.transport).toBe('stdio')
    const names = hub.tools().map((tool) => tool.exposedName)
    expect(names).toContain('mcp--everything--echo')
    expect(names).toContain('mcp--everything--get-tiny-image')
    expect(view?.resources.length).toBeGreaterThan(0)

    const port = createMcpPort({ hub, modeServers: () => 'all' })
    const ctx = { mode: 'code', signal: signal(), modelSupportsImages: true }
    const echo = await port.callExposed('mcp--everything--echo', { message: 'hello mcp' }, ctx)
    expect(echo).toEqual({ isError: false, content: [{ type: 'text', text: 'Echo: hello mcp' }] })

    const image = await port.callTool('everything', 'get-tiny-image', {}, ctx)
    expect(
      image.content.some(
        (part) => part.type === 'image' && part.mediaType === 'image/png' && part.dataBase64.length > 100
      )
    ).toBe(true)
    // The user sees the image whatever the model; the loop replaces it with a line for a model without images.
    const forUser = await port.callTool('everything', 'get-tiny-image', {}, { ...ctx, modelSupportsImages: false })
    expect(forUser.content.some((part) => part.type === 'image' && part.mediaType === 'image/png')).toBe(true)

    const links = await port.callTool('everything', 'get-resource-links', { count: 2 }, ctx)
    expect(JSON.stringify(links.content)).toContain('Resource link:')
    const structured = await port.callTool('everything', 'get-structured-content', { location: 'Chicago' }, ctx)
    expect(JSON.stringify(structured.content)).toMatch(/temperature/i)
    const embedded = await port.callTool(
      'everything',
      'get-resource-reference',
      { resourceType: 'Text', resourceId: 1 },
      ctx
    )
    expect(JSON.stringify(embedded.content)).toContain('Resource demo://')

    const uri = view?.resources[0]?.uri as string
    const resource = await port.readResource('everything', uri, ctx)
    expect(resource.isError).toBe(false)
    expect((resource.content[0] as { text: string }).text).toContain(uri)
  })

  it('validates arguments against the input schema before calling, naming the field', async () => {
    const { hub } = await openHub({ everything: everythingStdio() })
    const port = createMcpPort({ hub, modeServers: () => 'all' })
    const ctx = { mode: 'code', signal: signal(), modelSupportsImages: false }
    const missing = await port.callExposed('mcp--everything--echo', {}, ctx)
    expect(missing.isError).toBe(true)
    expect((missing.content[0] as { text: string }).text).toMatch(/'message'/)
    const wrongType = await port.callExposed('mcp--everything--get-sum', { a: 'one', b: 2 }, ctx)
    expect(wrongType.isError).toBe(true)
    expect((wrongType.content[0] as { text: string }).text).toMatch(/a must be number/)
    const unknown = await port.callTool('everything', 'no-such-tool', {}, ctx)
    expect(unknown.isError).toBe(true)
    expect((unknown.content[0] as { text: string }).text).toContain('echo')
  })

  it('reports progress of a long-running operation; a cancelled call returns at once and the server stays usable', async () => {
    const { hub } = await openHub({ everything: everythingStdio() })
    const port = createMcpPort({ hub, modeServers: () => 'all' })
    const progress: number[] = []
    const done = await port.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 1, steps: 4 },
      {
        mode: 'code',
        signal: signal(),
        modelSupportsImages: false,
        onProgress: (update) => progress.push(update.progress)
      }
    )
    expect(done.isError).toBe(false)
    expect(progress.length).toBeGreaterThanOrEqual(3)

    const controller = new AbortController()
    const started = Date.now()
    const call = port.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 30, steps: 30 },
      {
        mode: 'code',
        signal: controller.signal,
        modelSupportsImages: false,
        onProgress: () => controller.abort()
      }
    )
    await expect(call).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(10_000)
    // The server stays usable after the cancellation.
    const echo = await port.callTool(
      'everything',
      'echo',
      { message: 'still here' },
      { mode: 'code', signal: signal(), modelSupportsImages: false }
    )
    expect(echo.isError).toBe(false)
  })

  it('refreshes the tool list on tools/list_changed (tools the server registers after initialisation)', async () => {
    const { hub } = await openHub({ everything: everythingStdio() })
    // The reference server registers get-roots-list after initialisation for clients offering roots.
    await waitFor('get-roots-list', () => hub.tools().some((tool) => tool.name === 'get-roots-list'))
    const view = hub.snapshot().servers[0]
    expect(view.logs.some((line) => line.includes('tools list refreshed'))).toBe(true)
  })

  it('keeps a mode to its servers and hides disabled tools from the model', async () => {
    const { hub } = await openHub({ everything: everythingStdio({ disabledTools: ['get-env'] }) })
    expect(hub.tools().map((tool) => tool.name)).not.toContain('get-env')
    expect(hub.snapshot().servers[0].tools.find((tool) => tool.name === 'get-env')?.enabled).toBe(false)
    const port = createMcpPort({
      hub,
      modeServers: (mode) => (mode === 'ask' ? 'none' : mode === 'docs' ? ['other'] : 'all')
    })
    expect(port.toolsFor('code').length).toBeGreaterThan(5)
    expect(port.toolsFor('ask')).toEqual([])
    expect(port.toolsFor('docs')).toEqual([])
    const refused = await port.callTool(
      'everything',
      'echo',
      { message: 'x' },
      { mode: 'ask', signal: signal(), modelSupportsImages: false }
    )
    expect(refused).toMatchObject({ isError: true })
    const disabled = await port.callTool(
      'everything',
      'get-env',
      {},
      { mode: 'code', signal: signal(), modelSupportsImages: false }
    )
    expect(disabled.isError).toBe(true)
  })

  it('fails a server that cannot start with the reason and its stderr, restarts with backoff, then gives up', async () => {
    const { hub } = await openHub({
      broken: { command: process.execPath, args: ['-e', 'console.error("boom: missing API key"); process.exit(3)'] },
      everything: everythingStdio()
    })
    const broken = await waitFor('give up', () => {
      const view = hub.snapshot().servers.find((server) => server.name === 'broken')
      return view?.status === 'failed' && view.error?.includes('gave up') ? view : undefined
    })
    expect(broken.stderr).toContain('boom: missing API key')
    expect(broken.logs.filter((line) => line.includes('restarting in')).length).toBe(2)
    // The healthy server is not affected.
    expect(hub.snapshot().servers.find((server) => server.name === 'everything')?.status).toBe('connected')
  })

  it('restarts a server that crashes after connecting', async () => {
    const { hub } = await openHub({ everything: everythingStdio() })
    const port = createMcpPort({ hub, modeServers: () => 'all' })
    const before = hub.snapshot().servers[0]
    expect(before.status).toBe('connected')
    // get-env reveals nothing about the pid; kill the child through the process table instead
    // (earlier tests' servers gone first, so only this one is in it).
    await disposals.settle()
    const pids = await childPids(process.pid)
    for (const pid of pids) process.kill(pid, 'SIGKILL')
    await waitFor('failure noticed', () =>
      hub.snapshot().servers[0].logs.some((line) => line.includes('closed the connection'))
    )
    await waitFor('reconnected', () => hub.snapshot().servers[0].status === 'connected' || undefined, 20_000)
    const echo = await port.callTool(
      'everything',
      'echo',
      { message: 'back' },
      { mode: 'code', signal: signal(), modelSupportsImages: false }
    )
    expect(echo.isError).toBe(false)
  })

  it('times out a server that never answers and one that writes garbage, with a clear error', async () => {
    const { hub } = await openHub({
      silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeout: 1 },
      garbage: {
        command: process.execPath,
        args: ['-e', 'setInterval(() => process.stdout.write("not json at all\\n"), 50)'],
        timeout: 1
      }
    })
    for (const name of ['silent', 'garbage']) {
      const view = hub.snapshot().servers.find((server) => server.name === name)
      expect(view?.status).toBe('failed')
      expect(view?.error).toMatch(/timed out/i)
    }
    const port = createMcpPort({ hub, modeServers: () => 'all' })
    const call = await port.callTool(
      'silent',
      'anything',
      {},
      { mode: 'code', signal: signal(), modelSupportsImages: false }
    )
    expect(call.isError).toBe(true)
  })

  it('never starts an untrusted project server and applies its alwaysAllow only after trust', async () => {
    let trusted = false
    const dataDir = tempDir('modus-mcp-data-')
    const workspace = tempDir('modus-mcp-ws-')
    await writeJson(join(workspace, '.roo', 'mcp.json'), {
      mcpServers: { repo: everythingStdio({ alwaysAllow: ['echo'] }) }
    })
    hub = createMcpHub({ dataDir, env: process.env, isTrusted: () => trusted, backoff: FAST_BACKOFF })
    await hub.open(workspace)
    await hub.settled()
    const waiting = hub.snapshot().servers[0]
    expect(waiting).toMatchObject({ name: 'repo', scope: 'project', status: 'untrusted' })
    expect(hub.tools()).toEqual([])
    expect(hub.isAlwaysAllowed('repo', 'echo')).toBe(false)
    expect(await hub.describeProjectServers(workspace)).toEqual([
      `MCP server 'repo' runs ${process.execPath} ${everythingStdio().args.join(' ')}; always allowed without asking: echo`
    ])

    trusted = true
    await hub.open(workspace)
    await hub.settled()
    expect(hub.snapshot().servers[0].status).toBe('connected')
    expect(hub.isAlwaysAllowed('repo', 'echo')).toBe(true)
    expect(hub.isAlwaysAllowed('repo', 'get-sum')).toBe(false)
  })

  describe('over HTTP', () => {
    let streamable: HttpServer
    let sse: HttpServer
    beforeAll(async () => {
      ;[streamable, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')])
    })
    afterAll(async () => {
      await disposals.settle()
      await Promise.all([streamable?.stop(), sse?.stop()])
    })

    it('connects over Streamable HTTP with headers and calls a tool with progress', async () => {
      const { hub } = await openHub({
        remote: { type: 'streamable-http', url: streamable.url, headers: { 'X-Label': '${env:MCP_TEST_LABEL}' } }
      })
      const view = hub.snapshot().servers[0]
      expect(view.status, view.error).toBe('connected')
      expect(view.transport).toBe('streamable-http')
      const port = createMcpPort({ hub, modeServers: () => 'all' })
      const progress: number[] = []
      const result = await port.callTool(
        'remote',
        'trigger-long-running-operation',
        { duration: 1, steps: 3 },
        {
          mode: 'code',
          signal: signal(),
          modelSupportsImages: false,
          onProgress: (update) => progress.push(update.progress)
        }
      )
      expect(result.isError).toBe(false)
      expect(progress.length).toBeGreaterThanOrEqual(2)
    })

    it('falls back to the legacy SSE transport for a URL without a type', async () => {
      const { hub } = await openHub({ legacy: { url: sse.url } })
      const view = hub.snapshot().servers[0]
      expect(view.status, view.error).toBe('connected')
      expect(view.transport).toBe('sse')
      const port = createMcpPort({ hub, modeServers: () => 'all' })
      const echo = await port.callTool(
        'legacy',
        'echo',
        { message: 'over sse' },
        { mode: 'code', signal: signal(), modelSupportsImages: false }
      )
      expect(echo.content).toEqual([{ type: 'text', text: 'Echo: over sse' }])
    })
  })
})

/** Direct children of a process (Linux /proc), to crash a server the way a real crash would. */
async function childPids(parent: number): Promise<number[]> {
  const pids: number[] = []
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')
    if (Number(fields[1]) === parent && cmdline.includes('server-everything')) pids.push(Number(entry))
  }
  return pids
}
