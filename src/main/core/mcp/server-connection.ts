import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ReadResourceResult,
  type Resource,
  type Tool
} from '@modelcontextprotocol/sdk/types.js'
import type { McpServerStatus } from '../../../shared/contract/mcp'
import type { McpServerConfig } from './config'

export interface McpServerState {
  status: McpServerStatus
  error?: string
  stderr: string
  tools: Tool[]
  resources: Resource[]
  logs: string[]
  transport: string
}

export interface McpCallOptions {
  signal?: AbortSignal
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
}

/** One configured server: its process or HTTP session, its status, its tools and resources. */
export interface McpServerConnection {
  readonly config: McpServerConfig
  state(): McpServerState
  start(): Promise<void>
  stop(): Promise<void>
  restart(): Promise<void>
  callTool(tool: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<CallToolResult>
  readResource(uri: string, options?: McpCallOptions): Promise<ReadResourceResult>
}

export interface ServerConnectionDeps {
  config: McpServerConfig
  workspaceRoot: string | null
  clientVersion: string
  onChange: () => void
  /** Restart delays after a crash: base doubles per attempt up to max; gives up after maxRestarts. */
  backoff?: { baseMs: number; maxMs: number; maxRestarts: number }
  now?: () => number
}

const DEFAULT_BACKOFF = { baseMs: 1000, maxMs: 30_000, maxRestarts: 5 }
/** A server that stayed up this long has recovered: its next crash starts the backoff again. */
const STABLE_AFTER_MS = 60_000
const MAX_LOG_LINES = 200
const MAX_STDERR_CHARS = 4000

export function createServerConnection(deps: ServerConnectionDeps): McpServerConnection {
  const { config } = deps
  const backoff = deps.backoff ?? DEFAULT_BACKOFF
  const now = deps.now ?? Date.now
  let status: McpServerStatus = config.disabled ? 'disabled' : 'stopped'
  let error: string | undefined
  let stderr = ''
  let tools: Tool[] = []
  let resources: Resource[] = []
  let transportLabel = config.transport === 'http-auto' ? 'streamable-http' : config.transport
  const logs: string[] = []
  let client: Client | null = null
  /** A client whose connection is being made: `stop` closes it too. */
  let connecting: Client | null = null
  /** Bumped on every start/stop: callbacks of an older session are ignored. */
  let generation = 0
  let restarts = 0
  let connectedAt = 0
  let restartTimer: NodeJS.Timeout | undefined

  const log = (line: string) => {
    logs.push(`${new Date(now()).toISOString().slice(11, 19)} ${line}`)
    if (logs.length > MAX_LOG_LINES) logs.splice(0, logs.length - MAX_LOG_LINES)
    deps.onChange()
  }
  const setStatus = (next: McpServerStatus, reason?: string) => {
    status = next
    error = reason
    log(reason ? `${next}: ${reason}` : next)
  }

  const stdioTransport = (): Transport => {
    const transport = new StdioClientTransport({
      command: config.command as string,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      cwd: config.cwd,
      stderr: 'pipe'
    })
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-MAX_STDERR_CHARS)
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) log(`stderr: ${line.trimEnd()}`)
    })
    return transport
  }
  const httpInit = (): RequestInit => ({ headers: config.headers })

  const newClient = (session: number): Client => {
    const created = new Client(
      { name: 'modus', version: deps.clientVersion },
      { capabilities: { roots: { listChanged: true } } }
    )
    created.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: deps.workspaceRoot
        ? [{ uri: pathToFileURL(deps.workspaceRoot).href, name: basename(deps.workspaceRoot) }]
        : []
    }))
    created.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (session === generation) await refresh('tools', session)
    })
    created.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
      if (session === generation) await refresh('resources', session)
    })
    created.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
      const data = notification.params.data
      log(`${notification.params.level}: ${typeof data === 'string' ? data : JSON.stringify(data)}`)
    })
    created.onerror = (failure) => {
      if (session === generation) log(`error: ${failure.message}`)
    }
    return created
  }

  /**
   * Connects `created` over `transport`. While it runs, `stop` can close it, and a failed attempt is
   * closed here: either way a server still starting (for stdio, its child process) is not left behind.
   */
  const attempt = async (created: Client, transport: Transport): Promise<Client> => {
    connecting = created
    try {
      await created.connect(transport, { timeout: config.timeoutMs })
      return created
    } catch (failure) {
      await created.close().catch(() => undefined)
      throw failure
    } finally {
      if (connecting === created) connecting = null
    }
  }

  const connect = async (session: number): Promise<Client> => {
    if (config.transport === 'stdio') return attempt(newClient(session), stdioTransport())
    const url = new URL(config.url as string)
    if (config.transport === 'sse') {
      return attempt(newClient(session), new SSEClientTransport(url, { requestInit: httpInit() }))
    }
    try {
      transportLabel = 'streamable-http'
      return await attempt(newClient(session), new StreamableHTTPClientTransport(url, { requestInit: httpInit() }))
    } catch (failure) {
      if (config.transport !== 'http-auto' || session !== generation) throw failure
      // Servers written before Streamable HTTP answer only the legacy SSE transport.
      log(`Streamable HTTP failed (${(failure as Error).message}); trying the legacy SSE transport`)
      transportLabel = 'sse'
      return attempt(newClient(session), new SSEClientTransport(url, { requestInit: httpInit() }))
    }
  }

  const refresh = async (what: 'tools' | 'resources', session: number) => {
    const current = client
    if (!current) return
    try {
      if (what === 'tools') {
        const listed = await listAll(
          (cursor) => current.listTools(cursor ? { cursor } : undefined, { timeout: config.timeoutMs }),
          (page) => page.tools
        )
        if (session === generation) tools = listed
      } else if (current.getServerCapabilities()?.resources) {
        const listed = await listAll(
          (cursor) => current.listResources(cursor ? { cursor } : undefined, { timeout: config.timeoutMs }),
          (page) => page.resources
        )
        if (session === generation) resources = listed
      }
      if (session === generation) log(`${what} list refreshed (${what === 'tools' ? tools.length : resources.length})`)
    } catch (failure) {
      if (session === generation) log(`listing ${what} failed: ${(failure as Error).message}`)
    }
  }

  const scheduleRestart = (session: number) => {
    if (restarts >= backoff.maxRestarts) {
      setStatus(
        'failed',
        `${error ?? 'The server stopped'} — gave up after ${restarts} restarts; use Restart to try again`
      )
      return
    }
    const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** restarts)
    restarts++
    log(`restarting in ${Math.round(delay / 100) / 10} s (attempt ${restarts} of ${backoff.maxRestarts})`)
    restartTimer = setTimeout(() => {
      restartTimer = undefined
      if (session === generation) void launch()
    }, delay)
    restartTimer.unref?.()
  }

  const launch = async (): Promise<void> => {
    const session = ++generation
    stderr = ''
    tools = []
    resources = []
    setStatus('starting')
    let created: Client
    try {
      created = await connect(session)
    } catch (failure) {
      if (session !== generation) return
      setStatus('failed', describeFailure(failure))
      scheduleRestart(session)
      return
    }
    if (session !== generation) {
      await created.close().catch(() => undefined)
      return
    }
    client = created
    created.onclose = () => {
      if (session !== generation) return
      client = null
      if (now() - connectedAt >= STABLE_AFTER_MS) restarts = 0
      setStatus('failed', 'The server closed the connection (exited or crashed)')
      scheduleRestart(session)
    }
    await refresh('tools', session)
    await refresh('resources', session)
    if (session !== generation) return
    connectedAt = now()
    setStatus('connected')
  }

  const stop = async () => {
    generation++
    if (restartTimer) clearTimeout(restartTimer)
    restartTimer = undefined
    const closing = [client, connecting].filter((open): open is Client => open !== null)
    client = null
    connecting = null
    tools = []
    resources = []
    await Promise.all(closing.map((open) => open.close().catch(() => undefined)))
    if (status !== 'disabled') setStatus('stopped')
  }

  const requireClient = (): Client => {
    if (client && status === 'connected') return client
    throw new Error(`The MCP server "${config.name}" is not connected (${status}${error ? `: ${error}` : ''}).`)
  }
  const requestOptions = (options: McpCallOptions, signal: AbortSignal) => ({
    signal,
    timeout: config.timeoutMs,
    resetTimeoutOnProgress: true,
    onprogress: options.onProgress
      ? (progress: { progress: number; total?: number; message?: string }) => options.onProgress?.(progress)
      : undefined
  })

  return {
    config,
    state: () => ({ status, error, stderr, tools, resources, logs: [...logs], transport: transportLabel }),
    async start() {
      if (config.disabled || status === 'starting' || status === 'connected') return
      restarts = 0
      await launch()
    },
    stop,
    async restart() {
      await stop()
      restarts = 0
      if (!config.disabled) await launch()
    },
    async callTool(tool, args, options = {}) {
      const own = callSignal(options.signal)
      try {
        return (await requireClient().callTool(
          { name: tool, arguments: args },
          undefined,
          requestOptions(options, own.signal)
        )) as CallToolResult
      } finally {
        own.release()
      }
    },
    async readResource(uri, options = {}) {
      const own = callSignal(options.signal)
      try {
        return await requireClient().readResource({ uri }, requestOptions(options, own.signal))
      } finally {
        own.release()
      }
    }
  }
}

async function listAll<Page extends { nextCursor?: string }, Item>(
  fetchPage: (cursor?: string) => Promise<Page>,
  items: (page: Page) => Item[]
): Promise<Item[]> {
  const all: Item[] = []
  let cursor: string | undefined
  for (let pages = 0; pages < 100; pages++) {
    const page = await fetchPage(cursor)
    all.push(...items(page))
    cursor = page.nextCursor
    if (!cursor) break
  }
  return all
}

function describeFailure(failure: unknown): string {
  const message = failure instanceof Error ? failure.message : String(failure)
  const code = (failure as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT') return `The command was not found (${message})`
  return message
}

/**
 * A signal of the call's own, aborted with the task's. The SDK adds an abort listener to the signal
 * it is given and never removes it: given the task's signal, 1,050 calls left 1,050 listeners on it.
 * This one is dropped with the call; the link to the task's signal is removed when the call ends.
 */
export function callSignal(outer: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
  const own = new AbortController()
  if (!outer) return { signal: own.signal, release: () => undefined }
  if (outer.aborted) {
    own.abort(outer.reason)
    return { signal: own.signal, release: () => undefined }
  }
  const forward = () => own.abort(outer.reason)
  outer.addEventListener('abort', forward, { once: true })
  return { signal: own.signal, release: () => outer.removeEventListener('abort', forward) }
}
