import { homedir } from 'node:os'
import type { Handlers } from '../../shared/contract'
import { modesRequests } from '../../shared/contract/modes'
import { dispatch } from '../../shared/contract/dispatch'
import type { Result } from '../../shared/result'
import { appFiles } from './app-paths'
import { createEventBus, type EventBus } from './event-bus'
import { createAgentServices, type AgentServices } from './create-agent-services'
import { createModeHandlers } from './modes/mode-handlers'
import { createModeStore, type ModeStore } from './modes/mode-store'
import { createTerminalHandlers } from './terminal/handlers'
import { createCodeIndexHandlers } from './code-index/code-index-handlers'
import { createFileSecretStore, type SecretStore } from './settings/secret-store'
import { createSettingsHandlers } from './settings/settings-handlers'
import { createSettingsStore } from './settings/settings-store'
import { createRecentFolders } from './workspace-session/recent-folders'
import { createTrustStore } from './workspace-session/trust-store'
import { createTrustService } from './trust/trust-service'
import { createWorkspaceHandlers, createWorkspaceSession } from './workspace-session/workspace-handlers'
import { asOwnGrants, withOwnGrants, type OwnGrantsDeps } from './workspace-session/own-grants'
import { describeProjectGrants, projectGrantItems } from '../../shared/modes/project-grants'
import { createMcpHub } from './mcp/hub'
import { createOwnSaves } from './modes/own-saves'
import { createMcpHandlers } from './mcp/mcp-handlers'
import { createCommandCatalog } from './commands/command-catalog'
import { createCommandHandlers } from './commands/command-handlers'
import { projectHookGrants } from './hooks/hook-files'
import { createWorktreeApplyHandlers } from './worktrees/apply-handlers'
import { findOnPath } from './terminal/shell-integration'
import { createMentionHandlers } from './mentions/mention-handlers'
import { createPromptHandlers } from './loop/prompt-preview'
import { createHookHandlers } from './hooks/hook-handlers'

export interface CoreOptions {
  dataDir: string
  transport: 'electron' | 'web'
  version: string
  /** Native folder dialog, supplied by the Electron adapter. */
  pickFolder?: () => Promise<string | null>
  /** Where API keys live; the desktop app passes its safeStorage store. Default: a 0600 file. */
  secrets?: SecretStore
  env?: Record<string, string | undefined>
}

export interface Core {
  handlers: Handlers
  bus: EventBus
  /** Parses and runs one untrusted request; never throws. */
  handle(channel: unknown, payload: unknown): Promise<Result<unknown>>
  dispose(): Promise<void>
}

/** The composition root of the core: every service is built here, once, from factories. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const files = appFiles(options.dataDir)
  const bus = createEventBus()
  const settings = await createSettingsStore(files.settings)
  const secrets = options.secrets ?? createFileSecretStore(files.secrets)
  const env = options.env ?? process.env
  const recent = createRecentFolders(options.dataDir)
  const trust = createTrustStore(options.dataDir)
  // Every "is this project grant in force?" is answered here (modes, servers, hooks, rule files).
  const trustService = createTrustService({ store: trust, openFolder: () => session.current() ?? null })
  const mcp = createMcpHub({
    dataDir: options.dataDir,
    env,
    isTrusted: (root, serverGrants) => trustService.inForce('mcp-servers', root, serverGrants),
    clientVersion: options.version
  })
  mcp.onChange((snapshot) => bus.emit('mcp:changed', snapshot))
  const describeGrants = async (root: string): Promise<{ lines: string[]; items: string[] }> => {
    const { modes } = await createModeStore({ dataDir: options.dataDir, workspaceRoot: root }).list()
    // A project's MCP servers are programs it chose: each one is a grant the user must see.
    const servers = await mcp.describeProjectServers(root)
    // So are its hooks: programs that run at each tool call and message.
    const hooks = await projectHookGrants(root)
    return {
      lines: [...describeProjectGrants(modes), ...servers, ...hooks],
      items: [...projectGrantItems(modes), ...servers, ...hooks].sort()
    }
  }
  const ownSaves = createOwnSaves(options.dataDir)
  const session = createWorkspaceSession({ recent, bus, trust, describeGrants, forgetOwnSaves })
  // Revoking takes back the modes the user saved there too; the windows see them as the project's again.
  async function forgetOwnSaves(root: string): Promise<void> {
    await ownSaves.forgetFolder(root)
    await agent.refreshModes()
    bus.emit('modes:changed', await agent.modeStore().list())
  }
  const ownGrants: OwnGrantsDeps = { trust, session, grantItems: async (root) => (await describeGrants(root)).items }
  // Servers follow the open folder and its trust (answering the prompt re-announces the folder).
  bus.subscribe((name, payload) => {
    if (name === 'workspace:opened') void mcp.open((payload as { root: string }).root).catch(() => undefined)
  })
  const agent: AgentServices = await createAgentServices({
    dataDir: options.dataDir,
    settings,
    secrets,
    bus,
    env,
    currentWorkspace: () => session.current()?.root ?? null,
    trust: trustService,
    asOwnGrants: (change) => asOwnGrants(ownGrants, change),
    mcp
  })
  // A modes file changed on disk (a pull, a hand edit): grants the user has not seen ask again now.
  bus.subscribe((name) => {
    if (name === 'modes:changed') void session.refresh().catch(() => undefined)
  })
  // The open folder is indexed in the background (codebase_search); the index keeps itself current.
  const stopIndexingOnOpen = bus.subscribe((name, payload) => {
    const root = name === 'workspace:opened' ? (payload as { root?: string } | null)?.root : undefined
    const { autoStart, autoStartMaxFiles } = settings.get().codeIndex
    if (root)
      void agent.codeIndex.startWithWorkspace(root, { autoStart, maxFiles: autoStartMaxFiles }).catch(() => undefined)
  })
  // Tasks that were waiting on an approval when the app stopped ask again; others wait for "resume".
  // Then isolated tasks cut off mid-run continue in their worktrees; queued ones start as slots free.
  void agent.tasks
    .recover({ reaskApprovals: true })
    .catch(() => [])
    .then(() => agent.worktrees.recover())
    .catch(() => undefined)

  const handlers: Handlers = {
    'app:info': async () => ({
      version: options.version,
      transport: options.transport,
      platform: process.platform,
      dataDir: options.dataDir
    }),
    ...createWorkspaceHandlers({ session, recent, pickFolder: options.pickFolder }),
    ...createSettingsHandlers({
      settings,
      secrets,
      bus,
      env,
      onEmbeddingsChanged: () => agent.codeIndex.embeddingsChanged()
    }),
    ...createCodeIndexHandlers({ service: agent.codeIndex, currentWorkspace: () => session.current()?.root ?? null }),
    ...agent.handlers,
    ...currentModeHandlers(() => agent.modeStore(), ownGrants),
    ...createTerminalHandlers({ service: agent.terminal, workspaceRoot: () => session.current()?.root ?? null }),
    ...ownMcpChanges(createMcpHandlers(mcp), ownGrants),
    ...createWorktreeApplyHandlers({
      worktrees: agent.worktrees,
      start: (input) => agent.tasks.start(input),
      hasProgram: (name) => findOnPath(name, env, process.platform) !== null
    }),
    ...createCommandHandlers(
      createCommandCatalog({ dataDir: options.dataDir, workspace: () => session.current()?.root ?? null })
    ),
    ...createMentionHandlers({ workspace: agent.workspace, currentWorkspace: () => session.current()?.root ?? null }),
    ...createPromptHandlers({
      loop: () => agent.tasks.agentLoop,
      gate: agent.gate,
      currentWorkspace: () => session.current()?.root ?? null,
      beforePreview: () => agent.refreshModes().catch(() => undefined)
    }),
    ...createHookHandlers({
      dataDir: options.dataDir,
      home: env.HOME || homedir(),
      currentWorkspace: () => session.current(),
      trust: trustService
    })
  }

  return {
    handlers,
    bus,
    handle: (channel, payload) => dispatch(handlers, channel, payload),
    async dispose() {
      stopIndexingOnOpen()
      await agent.dispose()
      await mcp.dispose()
    }
  }
}

/**
 * The modes domain follows the open workspace: each request goes to that workspace's store. Modes
 * the user saves or imports into the project carry the user's own grants (see `withOwnGrants`).
 */
function currentModeHandlers(store: () => ModeStore, ownGrants: OwnGrantsDeps): ModeHandlers {
  const forward = (channel: keyof ModeHandlers) => (input: never) =>
    (createModeHandlers(store())[channel] as (input: never) => unknown)(input)
  const handlers = Object.fromEntries(
    Object.keys(modesRequests).map((channel) => [channel, forward(channel as keyof ModeHandlers)])
  ) as ModeHandlers
  return {
    ...handlers,
    'modes:save': withOwnGrants(ownGrants, handlers['modes:save']),
    'modes:import': withOwnGrants(ownGrants, handlers['modes:import'])
  }
}
type ModeHandlers = ReturnType<typeof createModeHandlers>

/** Servers and tool settings the user changes in the MCP view are their own grants, like saved modes. */
function ownMcpChanges(
  handlers: ReturnType<typeof createMcpHandlers>,
  ownGrants: OwnGrantsDeps
): ReturnType<typeof createMcpHandlers> {
  return {
    ...handlers,
    'mcp:saveServer': withOwnGrants(ownGrants, handlers['mcp:saveServer']),
    'mcp:removeServer': withOwnGrants(ownGrants, handlers['mcp:removeServer']),
    'mcp:setTool': (input) => asOwnGrants(ownGrants, () => handlers['mcp:setTool'](input))
  }
}
