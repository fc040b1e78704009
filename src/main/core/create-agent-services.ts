import { createBrowserSessions } from './browser/browser-sessions'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import type { Handlers } from '../../shared/contract'
import { DEFAULT_MODE_SLUG } from '../../shared/modes/builtin'
import { projectGrantItems } from '../../shared/modes/project-grants'
import { isReadOnlyCommand } from '../../shared/policy/read-only-command'
import { appFiles } from './app-paths'
import { createCheckpointService, withCommandCheckpoints, type CheckpointService } from './checkpoints'
import {
  commandChangeViews,
  createCheckpointHandlers,
  type CheckpointChannels
} from './checkpoints/checkpoint-handlers'
import { gitAvailable } from './checkpoints/git-cli'
import type { EventBus } from './event-bus'
import type { ModeStore } from './modes'
import type { ProviderDeps } from './providers/create-provider'
import type { SecretStore } from './settings/secret-store'
import type { SettingsStore } from './settings/settings-store'
import { createTaskStore, type TaskStore } from './store/task-store'
import { createTerminalService, type TerminalService } from './terminal'
import { createCodeParser } from './code-index/parser'
import { createParserPool } from './code-index/parser-pool'
import { createBuiltInExecutors } from './tools/executors'
import { createToolRegistry, type ToolRegistry } from './tools/registry'
import type { McpHub } from './mcp/hub'
import { createMcpPort } from './mcp/mcp-port'
import { registerMcpTools } from './tools/register-mcp-tools'
import { createCodeIndexService, type CodeIndexService } from './code-index/code-index-service'
import { resolveEmbeddingsKey } from './settings/secret-store'
import type { Workspace } from './workspace'
import { createApprovalQueue, type ApprovalQueue } from './approvals/approval-queue'
import { createEditPort } from './ports/edit-port'
import { createEnvironmentPort } from './tasks/environment-port'
import {
  createApprovalHandlers,
  createReviewHandlers,
  createTaskHandlers,
  type ApprovalChannels,
  type ReviewChannels,
  type TaskChannels
} from './tasks/handlers'
import { createPolicyGate } from './loop/policy-gate'
import type { EditPort, ToolGate, ToolPort } from './ports/loop-ports'
import type { ProviderChoice } from './loop/provider-port'
import { createTaskManager, type TaskManager } from './tasks/task-manager'
import { createActiveModes } from './tasks/active-modes'
import { createProviderChoice } from './loop/provider-choice'
import { createWorkspacePool } from './tasks/workspace-pool'
import { createSandboxService, type SandboxService } from './sandbox/sandbox-service'
import { createNetworkApprovals } from './sandbox/network-approvals'
import { createCommandSandboxes } from './sandbox/command-sandbox'
import { fixedTrust, type TrustService } from './trust/trust-service'
import { createHookService } from './hooks/hook-service'
import { createWorktreeTasks, type WorktreeTasks } from './tasks/worktree-tasks'
import { createWorktreeHandlers, type WorktreeChannels } from './tasks/worktree-handlers'
import { privateDataDirs } from './worktrees/private-dirs'
import { createMentionPort } from './mentions/mention-registry'
import { createPageFetcher } from './mentions/page-markdown'

export interface AgentServicesOptions {
  dataDir: string
  settings: SettingsStore
  secrets: SecretStore
  bus?: EventBus
  env?: Record<string, string | undefined>
  /** The open workspace (project modes come from it); the CLI passes its --workspace. */
  currentWorkspace: () => string | null
  /**
   * Which project grants are in force: project allow rules and auto-approve wait for the user to
   * trust the workspace, and a grant the user has not seen suspends it. Absent → nothing is trusted.
   */
  trust?: TrustService
  /**
   * Runs a change the user makes to a mode from an approval ("always allow"): what it grants is the
   * user's own, so it joins the grants they have seen. Absent → the change runs as it is.
   */
  asOwnGrants?: <T>(change: () => Promise<T>) => Promise<T>
  /** A provider chosen outside settings (CLI flags); wins over the active provider. */
  providerOverride?: Omit<ProviderChoice, 'apiKey'> & { apiKey?: string }
  providerDeps?: ProviderDeps
  terminal?: TerminalService
  /** The MCP servers of the open workspace; absent → no MCP tools. */
  mcp?: McpHub
  /** Where every applied change and command snapshot is kept; default: `<dataDir>/checkpoints`. */
  checkpoints?: CheckpointService
  /** The OS sandbox for modes that run commands in one; default: Anthropic's sandbox runtime. */
  sandbox?: (askNetwork: Parameters<typeof createSandboxService>[0]['askNetwork']) => SandboxService
  now?: () => number
}

export interface AgentServices {
  tasks: TaskManager
  approvals: ApprovalQueue
  edits: EditPort
  gate: ToolGate
  /** Every tool's executor; MCP servers and custom tools register theirs here at run time. */
  tools: ToolRegistry
  store: TaskStore
  terminal: TerminalService
  checkpoints: CheckpointService
  sandbox: SandboxService
  /** Re-reads the modes of the open workspace (after a mode edit or opening another folder). */
  refreshModes(): Promise<void>
  /** The mode store of the open workspace (global modes only when none is open). */
  modeStore(): ModeStore
  workspace(root: string): Promise<Workspace>
  /** Each workspace's code index (codebase_search), built in the background. */
  codeIndex: CodeIndexService
  /** Isolated tasks, each in its own git worktree under the data dir. */
  worktrees: WorktreeTasks
  handlers: Pick<
    Handlers,
    TaskChannels | ApprovalChannels | ReviewChannels | CheckpointChannels | WorktreeChannels | 'sandbox:status'
  >
  dispose(): Promise<void>
}

/**
 * Builds the agent side of the core from the real parts: catalog + policy, workspace tools,
 * terminal, providers, task store, approval queue. The Electron app, the web host and the CLI
 * all use this one factory.
 */
export async function createAgentServices(options: AgentServicesOptions): Promise<AgentServices> {
  const now = options.now ?? Date.now
  const env = options.env ?? process.env
  const files = appFiles(options.dataDir)
  const store = await createTaskStore(files.tasksDir)
  const openTrust = options.trust ?? fixedTrust(false)
  // The task manager is made below; the worktrees only call it once a task starts.
  const worktrees = await createWorktreeTasks({
    dataDir: options.dataDir,
    tasks: {
      start: (input, provider) => tasks.start(input, provider),
      list: () => store.list(),
      cancel: (taskId) => tasks.cancel(taskId),
      resume: (taskId) => tasks.resume(taskId),
      delete: (taskId) => tasks.delete(taskId)
    },
    folderTrusted: (root) => openTrust.inForce('modes', root, []),
    defaultMode: DEFAULT_MODE_SLUG,
    onChange: (list) => options.bus?.emit('worktrees:changed', list),
    // Made below; asked only once a task's files are listed.
    placeholders: () => sandbox.placeholders(),
    now
  })
  // A worktree carries the trust of the folder it was made from, never more (decisions.md).
  const trust: TrustService = {
    inForce: (kind, root, grants) => openTrust.inForce(kind, worktrees.sourceOf(root) ?? root, grants)
  }
  const approvals = createApprovalQueue({ now })
  const terminal =
    options.terminal ??
    createTerminalService({
      dataDir: options.dataDir,
      emit: (name, payload) => options.bus?.emit(name, payload as never),
      hardLimitMs: () => {
        const seconds = options.settings.get().policy.commandHardLimitSec
        return seconds ? seconds * 1000 : undefined
      }
    })

  const checkpoints =
    options.checkpoints ??
    createCheckpointService({
      dir: join(options.dataDir, 'checkpoints'),
      limits: () => {
        const { maxFileMb, workspaceCapMb } = options.settings.get().checkpoints
        return { maxFileBytes: maxFileMb * 1024 * 1024, maxWorkspaceBytes: workspaceCapMb * 1024 * 1024 }
      },
      now,
      onFailure: (taskId) => options.bus?.emit('checkpoints:changed', { taskId }),
      // A warm sandbox's placeholders over absent protected paths are not changes a command made.
      transientPaths: () => sandbox.placeholders()
    })

  const pool = createWorkspacePool({
    checkpoints,
    now,
    // Every staged/accepted/rejected/reverted change reaches the review UI of every window.
    onChange: (change) => options.bus?.emit('changes:updated', { taskId: change.taskId, change: edits.view(change) })
  })
  const workspace = pool.get
  const modes = await createActiveModes({
    dataDir: options.dataDir,
    bus: options.bus,
    currentWorkspace: options.currentWorkspace
  })

  const codeParser = createCodeParser()
  // The index's builds parse in worker threads; the tools' one-file parses stay in this one.
  const indexParser = createParserPool()
  const codeIndex = createCodeIndexService({
    dataDir: options.dataDir,
    parser: indexParser,
    async embeddings() {
      const config = options.settings.get().embeddings
      return config ? { config, apiKey: await resolveEmbeddingsKey(options.secrets, config, env) } : null
    },
    onStatus: (status) => options.bus?.emit('codeindex:progress', status)
  })
  const mcp = options.mcp
    ? createMcpPort({
        hub: options.mcp,
        modeServers: (slug) => modes.list().find((mode) => mode.slug === slug)?.mcpServers ?? 'all'
      })
    : undefined
  const browsers = createBrowserSessions({ viewport: () => options.settings.get().browser.viewport })
  const tools = createToolRegistry(
    createBuiltInExecutors({ codeParser, codeIndex: codeIndex.forWorkspace, mcp, browsers })
  )
  // Each server tool becomes a runtime definition + executor, re-registered when the servers change.
  const stopMcpTools = options.mcp && mcp ? registerMcpTools(options.mcp, mcp, tools) : () => undefined
  const ownGrants = <T>(change: () => Promise<T>): Promise<T> =>
    options.asOwnGrants ? options.asOwnGrants(change) : change()
  const gate = createPolicyGate({
    mcp,
    allowMcpTool: options.mcp
      ? (server, tool) => ownGrants(() => options.mcp!.setTool(server, tool, { alwaysAllow: true }))
      : undefined,
    mcpSchemaBudget: () => options.settings.get().mcp.schemaTokenBudget,
    runtimeTools: () => tools.runtimeDefinitions(),
    modes: () => modes.list(),
    policy: () => options.settings.get().policy,
    isTrusted: (root) => trust.inForce('modes', root, projectGrantItems(modes.list())),
    workspace: (root) => workspace(root).catch(() => undefined),
    sandboxStatus: () => sandbox.status(),
    addAllowRules: (slug, rules) => ownGrants(() => modes.addAllowRules(slug, rules)),
    addBrowserOrigin: (slug, origin) => ownGrants(() => modes.addBrowserOrigin(slug, origin))
  })

  const askNetwork = createNetworkApprovals({
    approvals,
    taskTitle: (taskId) => store.list().find((task) => task.id === taskId)?.title ?? 'Task',
    allowDomain: (slug, domain) => ownGrants(() => modes.addSandboxDomain(slug, domain)),
    // The task manager is made below; asks only come once tasks run commands.
    record: (taskId, event) => void tasks.record(taskId, event)
  })
  const sandbox = options.sandbox ? options.sandbox(askNetwork) : createSandboxService({ askNetwork })

  const commandSandbox = createCommandSandboxes({
    sandbox,
    mode: (slug) => modes.list().find((m) => m.slug === slug),
    workspaceRoot: async (root) => (await workspace(root)).root,
    privateDirs: (root) => privateDataDirs(options.dataDir, worktrees.dir, worktrees.worktreeFolders(), root),
    readOnlyDirs: (root) => worktrees.repositoryDirs(root)
  })

  const toolPort: ToolPort = withCommandCheckpoints(
    {
      executor: (name) => tools.executor(name),
      context: async (run) => ({
        taskId: run.taskId,
        signal: run.signal,
        modelSupportsImages: run.modelSupportsImages,
        mode: run.mode,
        plan: run.plan,
        reportProgress: run.onProgress,
        reportOutput: run.onOutput,
        // A page the browser opens by itself (a clicked link) is judged as a launch of it would be.
        async checkPage(url, from) {
          const params = { action: 'launch', url, ...(from === undefined ? {} : { openedFrom: from }) }
          const verdict = await gate.decide(
            { name: 'browser_action', params },
            { taskId: run.taskId, mode: run.mode, workspace: run.workspace }
          )
          return { allowed: verdict.decision === 'allow', reason: verdict.reason }
        },
        workspace: await workspace(run.workspace),
        terminal: terminal.forTask(run.taskId, run.workspace, run.taskTitle, worktrees.taskEnv(run.taskId)),
        sandbox: (request) => commandSandbox(run, request)
      })
    },
    { checkpoints, isReadOnly: isReadOnlyCommand, definition: gate.definition }
  )
  const edits = createEditPort({ workspace, openWorkspaces: pool.opened })
  const environment = createEnvironmentPort({
    workspace,
    terminalSummary: (taskId) => terminalSummary(terminal, taskId),
    disposeTask: async (taskId) => {
      await browsers.close(taskId)
      await terminal.endTask(taskId)
      await sandbox.endTask(taskId)
      await checkpoints.pruneTask(taskId)
    },
    // Between runs the task waits for its user: its warm sandboxes (and their placeholders) go.
    endRun: async (taskId) => {
      await Promise.all([browsers.close(taskId), sandbox.endTask(taskId)])
    }
  })

  const providerFor = createProviderChoice({
    settings: options.settings,
    secrets: options.secrets,
    env,
    override: options.providerOverride,
    providerDeps: options.providerDeps
  })

  // Global hooks run as they are; a project's own (.modus/hooks.yaml) only once the folder is trusted with them.
  const hooks = createHookService({
    dataDir: options.dataDir,
    env,
    isTrusted: (root, grants) => trust.inForce('hooks', root, grants)
  })

  const tasks = createTaskManager({
    store,
    approvals,
    bus: options.bus,
    defaultMode: DEFAULT_MODE_SLUG,
    providerFor,
    beforeRun: () => modes.refresh().catch(() => undefined),
    isolatedSubtasks: {
      start: (input, provider, signal) => worktrees.startSubtask(input, provider, signal),
      describe: (childId) => worktrees.describeTask(childId)
    },
    loop: {
      gate,
      tools: toolPort,
      edits,
      env: environment,
      now,
      platform: process.platform,
      shell: process.env.SHELL || safeShell(),
      sleep: options.providerDeps?.retry?.sleep,
      hooks,
      mentions: createMentionPort({ fetchPage: createPageFetcher(browsers) }),
      checkpoints: {
        async beginTurn(taskId, root, label) {
          const workspaceCheckpoints = checkpoints.forWorkspace(root)
          const marker = await workspaceCheckpoints.mark(taskId, label)
          void workspaceCheckpoints.enforceCap(taskId).catch(() => undefined)
          options.bus?.emit('checkpoints:changed', { taskId })
          return marker
        },
        async changedSinceLast(taskId, root) {
          return (await checkpoints.forWorkspace(root).markers(taskId)).at(-1)?.changedFiles ?? 0
        }
      }
    }
  })

  // A task's state moved: the worktree list shows it, and a freed slot starts the next queued task.
  const stopWorktreeWatch = tasks.subscribe((taskId, event) => worktrees.taskEvent(taskId, event))

  const approvalHandlers = createApprovalHandlers({ approvals, bus: options.bus })
  return {
    tasks,
    approvals,
    edits,
    gate,
    tools,
    store,
    terminal,
    checkpoints,
    sandbox,
    refreshModes: modes.refresh,
    modeStore: modes.store,
    workspace,
    codeIndex,
    worktrees,
    handlers: {
      ...createTaskHandlers({ tasks, currentWorkspace: options.currentWorkspace }),
      ...createWorktreeHandlers({
        worktrees,
        currentWorkspace: options.currentWorkspace,
        defaultMode: DEFAULT_MODE_SLUG
      }),
      'approvals:list': approvalHandlers['approvals:list'],
      'approvals:decide': approvalHandlers['approvals:decide'],
      'sandbox:status': () => sandbox.status(),
      ...createReviewHandlers({
        edits,
        approvals,
        task: (taskId) => store.list().find((task) => task.id === taskId),
        record: (taskId, event) => tasks.record(taskId, event),
        commandChanges: async (taskId) => {
          const workspaceRoot = store.list().find((task) => task.id === taskId)?.workspace
          return workspaceRoot ? commandChangeViews(checkpoints, workspaceRoot, taskId) : []
        },
        bus: options.bus
      }),
      ...createCheckpointHandlers({
        checkpoints,
        task: (taskId) => store.list().find((task) => task.id === taskId),
        workspace,
        edits,
        approvals,
        gitAvailable,
        settings: {
          get: () => options.settings.get().checkpoints,
          save: (input) =>
            options.settings.update((current) => ({ ...current, checkpoints: input })).then(() => undefined)
        },
        record: (taskId, event) => tasks.record(taskId, event),
        create: (taskId, label) => tasks.checkpoint(taskId, label),
        bus: options.bus
      })
    },
    async dispose() {
      stopWorktreeWatch()
      stopMcpTools()
      modes.dispose()
      approvalHandlers.dispose()
      await tasks.dispose()
      await browsers.dispose()
      if (!options.terminal) await terminal.dispose()
      await sandbox.dispose()
      await codeIndex.dispose()
      codeParser.dispose()
      indexParser.dispose()
    }
  }
}

function terminalSummary(terminal: TerminalService, taskId: string): string {
  try {
    return terminal.list().some((t) => t.taskId === taskId) ? terminal.forTask(taskId, '').describeProcesses() : ''
  } catch {
    return ''
  }
}

const safeShell = (): string => {
  try {
    return userInfo().shell ?? (process.platform === 'win32' ? 'powershell.exe' : '/bin/sh')
  } catch {
    return '/bin/sh'
  }
}
