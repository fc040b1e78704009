import { mkdir, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { ApprovalQueue } from '../../../src/main/core/approvals/approval-queue'
import { createNetworkApprovals } from '../../../src/main/core/sandbox/network-approvals'
import { createSandboxService, type SandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import type { CommandRunRequest, CommandRunResult } from '../../../src/main/core/terminal/types'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { createHarness, type Harness } from '../terminal/harness'

export const OFFLINE: EffectiveSandbox = { network: 'none', allowedDomains: [] }
export const ASKING: EffectiveSandbox = { network: 'ask', allowedDomains: [] }

/** A task shell on a real pty whose commands run in the real sandbox (bubblewrap, socat). */
export interface SandboxedShell {
  h: Harness
  sandbox: SandboxService
  /** The sandbox's writable temp dir (beside the workspace). */
  tempDir: string
  /** A loopback HTTP server's port; it answers every request with `hello from the test server`. */
  port: number
  /** Runs `command` in task `task`'s shell, sandboxed in Code mode with `setting` (default: offline). */
  run(
    command: string,
    setting?: EffectiveSandbox,
    extra?: Partial<CommandRunRequest>,
    task?: string
  ): Promise<CommandRunResult>
  dispose(): Promise<void>
}

export interface SandboxedShellOptions {
  /** Where the network asks go. */
  approvals: ApprovalQueue
  /** The task title the asks name. */
  taskTitle: string
  /** The task whose shell `run` uses unless told another. */
  task: string
  /** Gives the sandbox the shell's terminal, so it keeps one warm sandbox per task, mode and terminal. */
  warm?: boolean
  /** "Always allow" on an ask saves this domain for the mode. */
  allowDomain?: (mode: string, domain: string) => Promise<void>
}

/** A workspace with a `.git/config` to protect, a temp dir, a temporary HOME, and a loopback server to fetch. */
export async function startSandboxedShell(options: SandboxedShellOptions): Promise<SandboxedShell> {
  const h = await createHarness()
  const tempDir = join(h.root, '..', 'system-tmp')
  await mkdir(tempDir)
  await mkdir(join(h.root, '.git'))
  await writeFile(join(h.root, '.git', 'config'), '[core]\n')
  const sandbox = createSandboxService({
    tempDir,
    home: () => h.home,
    askNetwork: createNetworkApprovals({
      approvals: options.approvals,
      taskTitle: () => options.taskTitle,
      allowDomain: options.allowDomain ?? (async () => undefined)
    })
  })
  const server = createServer((_request, response) => response.end('hello from the test server\n'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const run: SandboxedShell['run'] = (command, setting = OFFLINE, extra = {}, task = options.task) =>
    h.service.forTask(task, h.root).execute({
      command,
      timeoutMs: 30_000,
      ...extra,
      sandbox: (text, shell, tty) =>
        sandbox.prepare({
          taskId: task,
          modeSlug: 'code',
          modeName: 'Code',
          command: text,
          workspaceRoot: h.root,
          sandbox: setting,
          shell,
          ...(options.warm ? { tty } : {})
        })
    })
  return {
    h,
    sandbox,
    tempDir,
    port: (server.address() as AddressInfo).port,
    run,
    async dispose() {
      server.close()
      await sandbox.dispose()
      await h.cleanup()
    }
  }
}
