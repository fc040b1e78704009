/**
 * A core in its own process, for the SIGKILL test: starts a task against the test's fake provider
 * and prints a line when it reaches the point the test kills it at. Run with jiti (TypeScript on Node).
 */
import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { createAgentServices } from '../../../../src/main/core/create-agent-services'
import { createFileSecretStore } from '../../../../src/main/core/settings/secret-store'
import { createSettingsStore } from '../../../../src/main/core/settings/settings-store'
import { createTerminalService } from '../../../../src/main/core/terminal'

const env = process.env
const dataDir = env.CRASH_DATA_DIR as string
const workspace = env.CRASH_WORKSPACE as string
const waitFor = env.CRASH_WAIT_FOR as 'approval' | 'tool-started'

async function main() {
  const settings = await createSettingsStore(join(dataDir, 'settings.json'))
  // The task shell gets a HOME of its own: a test never reads or writes the user's.
  const home = mkdtempSync(join(dataDir, 'home-'))
  const terminal = createTerminalService({
    dataDir,
    emit: () => undefined,
    resolveEnv: async () => ({ ...process.env, HOME: home }),
    shell: '/bin/bash',
    loadUserRc: false
  })
  const services = await createAgentServices({
    dataDir,
    settings,
    secrets: createFileSecretStore(join(dataDir, 'secrets.json')),
    currentWorkspace: () => workspace,
    terminal,
    providerOverride: {
      kind: 'anthropic',
      model: 'claude-sonnet-4-6',
      baseUrl: env.CRASH_PROVIDER_URL,
      apiKey: 'test-key'
    }
  })
  services.tasks.subscribe((id, event) => {
    // Logged events only: the kill must come after the log has the line the test relies on.
    if (waitFor === 'tool-started' && event.type === 'tool-started') process.stdout.write(`READY ${id}\n`)
    if (waitFor === 'approval' && event.type === 'approval-requested') process.stdout.write(`READY ${id}\n`)
  })
  const input = { text: env.CRASH_TASK ?? 'crash test', mode: env.CRASH_MODE ?? 'builder', workspace }
  // CRASH_WORKTREE=1: the task runs isolated, in a worktree of the workspace's repository.
  const taskId =
    env.CRASH_WORKTREE === '1' ? (await services.worktrees.start(input)).taskId : (await services.tasks.start(input)).id
  process.stdout.write(`STARTED ${taskId}\n`)
  // Stay alive until killed.
  setInterval(() => undefined, 1_000)
}

main().catch((error) => {
  process.stderr.write(`crash-child failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(2)
})
