import { mkdtempSync, promises as fs, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { stringify } from 'yaml'
import type { AgentEvent } from '../../../../src/shared/agent/events'
import type { ApprovalItem } from '../../../../src/shared/contract/approvals'
import type { ModeConfigInput } from '../../../../src/shared/modes/schema'
import {
  createAgentServices,
  type AgentServices,
  type AgentServicesOptions
} from '../../../../src/main/core/create-agent-services'
import { createFileSecretStore } from '../../../../src/main/core/settings/secret-store'
import { createSettingsStore, type SettingsStore } from '../../../../src/main/core/settings/settings-store'
import type { GlobalPolicy } from '../../../../src/main/core/settings/settings-schema'
import { createTerminalService } from '../../../../src/main/core/terminal'
import type { ModelOverride } from '../../../../src/shared/models'
import type { McpHub } from '../../../../src/main/core/mcp/hub'
import { fixedTrust } from '../../../../src/main/core/trust/trust-service'
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../../../support/fake-provider'

export type Protocol = 'anthropic' | 'openai'
export const MODEL: Record<Protocol, string> = { anthropic: 'claude-sonnet-4-6', openai: 'gpt-4o' }

export interface HarnessOptions {
  protocol?: Protocol
  turns?: FakeTurn[]
  files?: Record<string, string>
  /** Global custom modes (no workspace trust needed), in the Modus modes file format. */
  modes?: ModeConfigInput[]
  policy?: Partial<GlobalPolicy>
  modelOverrides?: ModelOverride[]
  model?: string
  dataDir?: string
  workspace?: string
  /** HOME of the task shells (default: a fresh temp dir, so no test reads or writes the user's own). */
  home?: string
  /** MCP servers (the hub is built by the caller over this harness's data dir). */
  mcp?: McpHub
  /** The OS sandbox service (default: the real one on this machine's PATH). */
  sandbox?: AgentServicesOptions['sandbox']
  /** The checkpoint service (default: the real one in the data dir). */
  checkpoints?: AgentServicesOptions['checkpoints']
  /** Whether the user trusts the workspace (default: not trusted, as a folder nobody answered for). */
  trusted?: boolean
}

export interface Harness {
  fake: FakeProvider
  services: AgentServices
  settings: SettingsStore
  dataDir: string
  workspace: string
  /** HOME of the task shells. */
  home: string
  /** Every event of every task, in order. */
  events: Array<{ taskId: string; event: AgentEvent }>
  /** The waits before a retry the core asked for, in ms (they pass at once here). */
  retryWaits: number[]
  eventsOf(taskId: string): AgentEvent[]
  waitForEvent(predicate: (event: AgentEvent, taskId: string) => boolean, what?: string): Promise<AgentEvent>
  waitForApproval(predicate?: (item: ApprovalItem) => boolean): Promise<ApprovalItem>
  read(path: string): Promise<string>
  close(): Promise<void>
}

// Generous: CI runs the suites side by side on 2 cores, where a parent with two worktree subtasks took over 20 s.
const WAIT_LIMIT_MS = 60_000

/** A real core (task store, policy, workspace tools, pty terminal) against the fake provider over loopback. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const protocol = options.protocol ?? 'anthropic'
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'modus-data-'))
  const workspace = options.workspace ?? realpathSync(mkdtempSync(join(tmpdir(), 'modus-ws-')))
  const home = options.home ?? realpathSync(mkdtempSync(join(tmpdir(), 'modus-home-')))
  for (const [path, content] of Object.entries(options.files ?? {})) {
    await fs.mkdir(dirname(join(workspace, path)), { recursive: true })
    await fs.writeFile(join(workspace, path), content)
  }
  if (options.modes) await fs.writeFile(join(dataDir, 'modes.yaml'), stringify({ customModes: options.modes }))
  const fake = await startFakeProvider({ name: 'agent harness', turns: options.turns ?? [] })
  const settings = await createSettingsStore(join(dataDir, 'settings.json'))
  if (options.policy) await settings.update((s) => ({ ...s, policy: { ...s.policy, ...options.policy } }))
  const terminal = createTerminalService({
    dataDir,
    emit: () => undefined,
    resolveEnv: async () => ({ ...process.env, HOME: home }),
    shell: '/bin/bash',
    loadUserRc: false
  })
  const retryWaits: number[] = []
  const services = await createAgentServices({
    dataDir,
    settings,
    secrets: createFileSecretStore(join(dataDir, 'secrets.json')),
    currentWorkspace: () => workspace,
    terminal,
    mcp: options.mcp,
    sandbox: options.sandbox,
    checkpoints: options.checkpoints,
    ...(options.trusted ? { trust: fixedTrust(true) } : {}),
    providerOverride: {
      kind: protocol,
      model: options.model ?? MODEL[protocol],
      baseUrl: protocol === 'anthropic' ? fake.anthropicBaseUrl : fake.openaiBaseUrl,
      apiKey: 'test-key',
      modelOverrides: options.modelOverrides
    },
    providerDeps: { retry: { sleep: async (ms) => void retryWaits.push(ms), random: () => 0.5 } }
  })
  const events: Array<{ taskId: string; event: AgentEvent }> = []
  const waiters = new Set<() => void>()
  services.tasks.subscribe((taskId, event) => {
    events.push({ taskId, event })
    for (const wake of [...waiters]) wake()
  })
  services.approvals.subscribe(() => {
    for (const wake of [...waiters]) wake()
  })

  const waitUntil = <T>(probe: () => T | undefined, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = probe()
        if (found === undefined) return false
        waiters.delete(check)
        clearTimeout(timer)
        resolve(found)
        return true
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(
          new Error(
            `Timed out waiting for ${what}; last events: ${JSON.stringify(events.slice(-8).map((e) => e.event.type))}; fake failures: ${fake.failures.join('; ')}`
          )
        )
      }, WAIT_LIMIT_MS)
      if (!check()) waiters.add(check)
    })

  return {
    fake,
    services,
    retryWaits,
    settings,
    dataDir,
    workspace,
    home,
    events,
    eventsOf: (taskId) => events.filter((e) => e.taskId === taskId).map((e) => e.event),
    waitForEvent: (predicate, what = 'an event') =>
      waitUntil(() => events.find((e) => predicate(e.event, e.taskId))?.event, what),
    waitForApproval: (predicate = () => true) =>
      waitUntil(() => services.approvals.list().find(predicate), 'an approval item'),
    read: (path) => fs.readFile(join(workspace, path), 'utf8'),
    async close() {
      await services.dispose()
      await terminal.dispose()
      await fake.close()
    }
  }
}

/** A mode that auto-approves reads and edits, and asks for commands. */
export const builderMode: ModeConfigInput = {
  slug: 'builder',
  name: 'Builder',
  roleDefinition: 'You build things in tests.',
  groups: ['read', 'edit', 'command'],
  autoApprove: { read: true, edit: true }
}

/** A mode that auto-approves everything it can: commands through the explicit "run everything" rule `*`. */
export const autopilotMode: ModeConfigInput = {
  slug: 'autopilot',
  name: 'Autopilot',
  roleDefinition: 'You run without asking in tests.',
  groups: ['read', 'edit', 'command'],
  autoApprove: { read: true, edit: true, command: true },
  commandRules: { allow: ['*'] }
}
