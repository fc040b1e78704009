import { watch as watchPath, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js'
import type {
  McpConfigProblem,
  McpScope,
  McpServerEntry,
  McpServerView,
  McpSnapshot
} from '../../../shared/contract/mcp'
import type { McpToolInfo } from '../../../shared/tools/mcp'
import {
  describeSetup,
  describeTarget,
  loadMcpConfig,
  mcpConfigFiles,
  McpConfigWriteError,
  updateMcpConfigFile,
  type McpServerConfig
} from './config'
import { assignExposedNames, sameToolName } from './tool-names'
import type { McpCallOptions, McpServerConnection } from './server-connection'

export interface McpHubDeps {
  dataDir: string
  env: Record<string, string | undefined>
  /** Trusted, having seen these grants of the project's servers (as `describeProjectServers` words them). */
  isTrusted: (workspaceRoot: string, serverGrants: readonly string[]) => boolean
  clientVersion?: string
  /** Restart backoff (tests shorten it). */
  backoff?: { baseMs: number; maxMs: number; maxRestarts: number }
  /** Follow edits of the config files (default on; a one-shot CLI run turns it off). */
  watchConfig?: boolean
}

/** A tool of a running server, as the catalog and the executors need it. */
export interface McpToolEntry extends McpToolInfo {
  exposedName: string
  enabled: boolean
  annotations?: Record<string, unknown>
}

/**
 * The MCP servers of the open workspace: global ones always, the project's own only once the user
 * trusts the folder. Owns the connections, their status and the tool names the model sees.
 */
export interface McpHub {
  /** Loads the config of this workspace (null: global servers only) and starts what may run. */
  open(workspaceRoot: string | null): Promise<void>
  /** Re-reads the config files: changed servers restart, removed ones stop. */
  reload(): Promise<void>
  snapshot(): McpSnapshot
  /** Enabled tools of connected servers, optionally only of the named servers. */
  tools(servers?: (server: string) => boolean): McpToolEntry[]
  /** Whether a connected server (of those allowed) lists resources. */
  hasResources(servers?: (server: string) => boolean): boolean
  findTool(exposedName: string): McpToolEntry | undefined
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options?: McpCallOptions
  ): Promise<CallToolResult>
  readResource(server: string, uri: string, options?: McpCallOptions): Promise<ReadResourceResult>
  /** Per-tool `alwaysAllow` of the server's config (a project's only when trusted). */
  isAlwaysAllowed(server: string, tool: string): boolean
  restart(server: string): Promise<void>
  saveServer(scope: McpScope, name: string, entry: McpServerEntry, previousName?: string): Promise<void>
  removeServer(scope: McpScope, name: string): Promise<void>
  setTool(server: string, tool: string, change: { enabled?: boolean; alwaysAllow?: boolean }): Promise<void>
  /** The project's servers of a folder as the trust prompt lists them (command line or URL). */
  describeProjectServers(workspaceRoot: string): Promise<string[]>
  onChange(listener: (snapshot: McpSnapshot) => void): () => void
  /** Resolves once every server started at the last open/reload has connected or failed once. */
  settled(): Promise<void>
  dispose(): Promise<void>
}

interface Running {
  key: string
  connection: McpServerConnection
}

/**
 * What a project's server grants, in the trust prompt's words: the program it runs (with its folder
 * and environment) or the URL it reaches (with its headers), and the tools it runs unasked.
 */
const serverGrant = (config: McpServerConfig): string => {
  const runs = `MCP server '${config.name}' ${config.entry.command ? 'runs' : 'connects to'} ${describeTarget(config.entry)}`
  const target = [runs, ...describeSetup(config.entry)].join('; ')
  const unasked = [...new Set(config.alwaysAllow)].sort()
  return unasked.length > 0 ? `${target}; always allowed without asking: ${unasked.join(', ')}` : target
}

const configKey = (config: McpServerConfig): string =>
  JSON.stringify([
    config.scope,
    config.file,
    config.transport,
    config.command,
    config.args,
    config.env,
    config.cwd,
    config.url,
    config.headers,
    config.disabled,
    config.timeoutMs
  ])

export function createMcpHub(deps: McpHubDeps): McpHub {
  let root: string | null = null
  let configs: McpServerConfig[] = []
  let waiting: McpServerConfig[] = []
  let problems: McpConfigProblem[] = []
  const running = new Map<string, Running>()
  const listeners = new Set<(snapshot: McpSnapshot) => void>()
  let pendingStarts: Promise<void>[] = []
  let notifyTimer: NodeJS.Timeout | undefined
  let nameCache: { key: string; names: Map<string, string> } | undefined
  /** What the last change event carried: nothing is sent when no server or problem changed. */
  let lastSent = JSON.stringify({ servers: [], problems: [] })

  const files = () => mcpConfigFiles(deps.dataDir, root)
  let stopWatching: () => void = () => undefined
  /** One reconcile at a time: a file event during a restart waits its turn. */
  let queue: Promise<void> = Promise.resolve()
  const serial = (): Promise<void> => (queue = queue.then(reconcile, reconcile))
  const notify = () => {
    if (notifyTimer) return
    notifyTimer = setTimeout(() => {
      notifyTimer = undefined
      const snapshot = hub.snapshot()
      const content = JSON.stringify({ servers: snapshot.servers, problems: snapshot.problems })
      if (content === lastSent) return
      lastSent = content
      for (const listener of listeners) listener(snapshot)
    }, 30)
    notifyTimer.unref?.()
  }

  /** The exposed names over every tool of every connected server, so toggling one never renames another. */
  const exposedNames = (): Map<string, string> => {
    const all = [...running.values()].flatMap(({ connection }) =>
      connection.state().tools.map((tool) => ({ server: connection.config.name, tool: tool.name }))
    )
    const key = JSON.stringify(all)
    if (nameCache?.key !== key) nameCache = { key, names: assignExposedNames(all) }
    return nameCache.names
  }

  const entriesOf = (connection: McpServerConnection): McpToolEntry[] => {
    const names = exposedNames()
    const { config } = connection
    const state = connection.state()
    if (state.status !== 'connected') return []
    return state.tools.map((tool) => ({
      server: config.name,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      exposedName: names.get(`${config.name}\u0000${tool.name}`) as string,
      enabled: !config.disabledTools.includes(tool.name),
      annotations: tool.annotations
    }))
  }

  const connectionOf = (server: string): McpServerConnection => {
    const found = running.get(server)?.connection
    if (!found)
      throw new Error(
        `No MCP server named "${server}" is configured here. Servers: ${[...running.keys()].join(', ') || 'none'}.`
      )
    return found
  }

  const reconcile = async () => {
    const loaded = await loadMcpConfig(files(), { env: deps.env, workspaceRoot: root })
    problems = loaded.problems
    // A server added or widened since the user trusted the folder is a grant they have not seen.
    const trusted = root !== null && deps.isTrusted(root, loaded.project.map(serverGrant))
    // A trusted project's server replaces the global one of the same name; an untrusted one waits.
    // A file being edited into shape (it does not parse) keeps its servers as they were.
    const kept = (scope: McpScope) =>
      [...configs, ...waiting].filter((config) => config.scope === scope && loaded.brokenFiles.includes(config.file))
    const global = [...kept('global'), ...loaded.global]
    const project = [...kept('project'), ...loaded.project]
    const byName = new Map<string, McpServerConfig>()
    for (const config of global) byName.set(config.name, config)
    if (trusted) for (const config of project) byName.set(config.name, config)
    configs = [...byName.values()]
    waiting = trusted ? [] : project
    const stops: Promise<void>[] = []
    for (const [name, entry] of running) {
      const next = byName.get(name)
      if (!next || configKey(next) !== entry.key) {
        running.delete(name)
        stops.push(entry.connection.stop())
      }
    }
    await Promise.all(stops)
    pendingStarts = []
    // The MCP SDK loads with the first server: most workspaces configure none.
    const { createServerConnection } =
      configs.length > 0 ? await import('./server-connection') : { createServerConnection: null }
    for (const config of configs) {
      const current = running.get(config.name)
      if (current) {
        // Same process; only the tool lists of its config (alwaysAllow, disabledTools) changed.
        Object.assign(current.connection.config, {
          alwaysAllow: config.alwaysAllow,
          disabledTools: config.disabledTools,
          entry: config.entry
        })
        continue
      }
      const connection = createServerConnection!({
        config,
        workspaceRoot: root,
        clientVersion: deps.clientVersion ?? '0.1.0',
        onChange: notify,
        backoff: deps.backoff
      })
      running.set(config.name, { key: configKey(config), connection })
      pendingStarts.push(connection.start())
    }
    notify()
  }

  const viewOf = (connection: McpServerConnection): McpServerView => {
    const { config } = connection
    const state = connection.state()
    const names = exposedNames()
    const allowAll = config.alwaysAllow.includes('*')
    return {
      name: config.name,
      scope: config.scope,
      file: config.file,
      target: describeTarget(config.entry),
      transport: state.transport,
      status: state.status,
      error: state.error,
      stderr: state.stderr || undefined,
      tools: state.tools.map((tool) => ({
        name: tool.name,
        exposedName: names.get(`${config.name}\u0000${tool.name}`) ?? tool.name,
        description: tool.description,
        enabled: !config.disabledTools.includes(tool.name),
        alwaysAllow: allowAll || config.alwaysAllow.includes(tool.name)
      })),
      resources: state.resources.map((resource) => ({
        uri: resource.uri,
        name: resource.name,
        mimeType: resource.mimeType
      })),
      logs: state.logs,
      entry: config.entry
    }
  }

  const waitingView = (config: McpServerConfig): McpServerView => ({
    name: config.name,
    scope: config.scope,
    file: config.file,
    target: describeTarget(config.entry),
    transport: config.transport === 'http-auto' ? 'streamable-http' : config.transport,
    status: 'untrusted',
    error: 'Not started: trust this workspace to run the servers its files configure.',
    tools: [],
    resources: [],
    logs: [],
    entry: config.entry
  })

  /** The file a change to this server goes to: the one it came from, else the scope's main file. */
  const fileFor = (scope: McpScope, name?: string): string => {
    const known = [...configs, ...waiting].find((config) => config.scope === scope && config.name === name)
    if (known) return known.file
    if (scope === 'global') return files().global
    const project = files().project[0]
    if (!project) throw new McpConfigWriteError('Open a workspace first: project servers live in its .modus/mcp.json.')
    return project
  }

  const hub: McpHub = {
    async open(workspaceRoot) {
      if (workspaceRoot !== root) {
        root = workspaceRoot
        // Another folder: every server restarts with the new roots and working directory.
        await Promise.all([...running.values()].map((entry) => entry.connection.stop()))
        running.clear()
        stopWatching()
        if (deps.watchConfig !== false)
          stopWatching = watchConfigFiles(deps.dataDir, root, () => void serial().catch(() => undefined))
      }
      await serial()
    },
    reload: serial,
    snapshot: () => ({
      servers: [...[...running.values()].map(({ connection }) => viewOf(connection)), ...waiting.map(waitingView)],
      problems,
      files: { global: files().global, project: files().project[0] ?? null }
    }),
    tools(servers) {
      return [...running.values()]
        .filter(({ connection }) => !servers || servers(connection.config.name))
        .flatMap(({ connection }) => entriesOf(connection))
        .filter((tool) => tool.enabled)
    },
    hasResources: (servers) =>
      [...running.values()].some(
        ({ connection }) =>
          (!servers || servers(connection.config.name)) &&
          connection.state().status === 'connected' &&
          connection.state().resources.length > 0
      ),
    findTool(exposedName) {
      const all = [...running.values()].flatMap(({ connection }) => entriesOf(connection))
      return (
        all.find((tool) => tool.exposedName === exposedName) ??
        all.find((tool) => sameToolName(tool.exposedName, exposedName))
      )
    },
    callTool: (server, tool, args, options) => connectionOf(server).callTool(tool, args, options),
    readResource: (server, uri, options) => connectionOf(server).readResource(uri, options),
    isAlwaysAllowed(server, tool) {
      const config = running.get(server)?.connection.config
      if (!config) return false
      if (config.scope === 'project' && !(root && deps.isTrusted(root, [serverGrant(config)]))) return false
      return config.alwaysAllow.includes('*') || config.alwaysAllow.includes(tool)
    },
    async restart(server) {
      const connection = connectionOf(server)
      await connection.restart()
    },
    async saveServer(scope, name, entry, previousName) {
      const file = fileFor(scope, previousName ?? name)
      await updateMcpConfigFile(file, (servers) => {
        if (previousName && previousName !== name) delete servers[previousName]
        servers[name] = entry
      })
      await serial()
    },
    async removeServer(scope, name) {
      await updateMcpConfigFile(fileFor(scope, name), (servers) => {
        delete servers[name]
      })
      await serial()
    },
    async setTool(server, tool, change) {
      const config = connectionOf(server).config
      await updateMcpConfigFile(config.file, (servers) => {
        const entry = { ...((servers[server] as Record<string, unknown> | undefined) ?? {}) }
        const toggle = (key: 'alwaysAllow' | 'disabledTools', on: boolean) => {
          const list = new Set(Array.isArray(entry[key]) ? (entry[key] as string[]) : [])
          if (on) list.add(tool)
          else list.delete(tool)
          entry[key] = [...list]
        }
        if (change.enabled !== undefined) toggle('disabledTools', !change.enabled)
        if (change.alwaysAllow !== undefined) toggle('alwaysAllow', change.alwaysAllow)
        servers[server] = entry
      })
      await serial()
    },
    async describeProjectServers(workspaceRoot) {
      const loaded = await loadMcpConfig(
        { global: '', project: mcpConfigFiles(deps.dataDir, workspaceRoot).project },
        { env: {}, workspaceRoot }
      )
      return loaded.project.map(serverGrant)
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async settled() {
      await Promise.all(pendingStarts)
    },
    async dispose() {
      stopWatching()
      if (notifyTimer) clearTimeout(notifyTimer)
      listeners.clear()
      await Promise.all([...running.values()].map((entry) => entry.connection.stop()))
      running.clear()
    }
  }
  return hub
}

/**
 * Calls `changed` (debounced: editors write in steps) when a config file — the global mcp.json, the
 * project's .modus/mcp.json or .roo/mcp.json — is written, created or removed. A .modus/ or .roo/
 * folder created later is picked up: the watchers are set again when one appears.
 */
function watchConfigFiles(dataDir: string, root: string | null, changed: () => void): () => void {
  const configDirs = new Set(['.modus', '.roo'])
  let watchers: FSWatcher[] = []
  let timer: NodeJS.Timeout | undefined
  const later = () => {
    clearTimeout(timer)
    timer = setTimeout(changed, 150)
    timer.unref?.()
  }
  const arm = () => {
    for (const watcher of watchers) watcher.close()
    watchers = []
    const watchDir = (dir: string, onEvent: (file: string) => void) => {
      try {
        const watcher = watchPath(dir, (_event, file) => onEvent(String(file ?? '')))
        watcher.on('error', () => undefined)
        watchers.push(watcher)
      } catch {
        // Not there (yet): nothing to watch.
      }
    }
    const onConfig = (file: string) => {
      if (file === '' || file === 'mcp.json') later()
    }
    watchDir(dataDir, onConfig)
    if (!root) return
    for (const dir of configDirs) watchDir(join(root, dir), onConfig)
    watchDir(root, (file) => {
      if (!configDirs.has(file)) return
      arm()
      later()
    })
  }
  arm()
  return () => {
    clearTimeout(timer)
    for (const watcher of watchers) watcher.close()
    watchers = []
  }
}
