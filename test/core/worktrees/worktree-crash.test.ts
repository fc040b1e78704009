import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, promises as fs, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { startFakeProvider, type FakeProvider } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness } from '../agent/support/harness'
import { makeRepo, userGitState } from './git-repo'

const root = resolve(__dirname, '../../..')
const jiti = join(root, 'node_modules/jiti/lib/jiti-cli.mjs')
const childScript = join(root, 'test/core/agent/support/crash-child.ts')

let harness: Harness | undefined
let child: ChildProcess | undefined
let childFake: FakeProvider | undefined
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL')
  await childFake?.close()
  await harness?.close()
  harness = undefined
  child = undefined
  childFake = undefined
})

const COMMAND = 'printenv PORT > resumed.txt'

describe('an isolated task after kill -9', { timeout: 180_000 }, () => {
  it('resumes in its own worktree: the approval is asked again and the command runs there, not in the main tree', async () => {
    const repo = await makeRepo({ 'a.txt': 'one\n' })
    const dataDir = mkdtempSync(join(tmpdir(), 'modus-wt-crash-'))
    writeFileSync(join(dataDir, 'modes.yaml'), stringify({ customModes: [builderMode] }))
    // The command asks (builder mode asks for commands); the kill comes while it waits.
    childFake = await startFakeProvider({
      name: 'worktree crash child',
      turns: [{ toolCalls: [{ name: 'execute_command', input: { command: COMMAND } }] }]
    })
    child = spawn(process.execPath, [jiti, childScript], {
      cwd: root,
      env: {
        ...process.env,
        CRASH_DATA_DIR: dataDir,
        CRASH_WORKSPACE: repo,
        CRASH_WAIT_FOR: 'approval',
        CRASH_MODE: 'builder',
        CRASH_WORKTREE: '1',
        CRASH_PROVIDER_URL: childFake.anthropicBaseUrl
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
    const taskId = await new Promise<string>((resolveReady, reject) => {
      let out = ''
      child!.stdout?.on('data', (d: Buffer) => {
        out += d.toString()
        const ready = /READY (\S+)/.exec(out)
        if (ready) resolveReady(ready[1])
      })
      child!.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)))
    })
    const exited = new Promise((r) => child!.once('exit', r))
    child.kill('SIGKILL')
    await exited
    const before = userGitState(repo)

    harness = await createHarness({ dataDir, workspace: repo })
    const h = harness
    const [listed] = await h.services.worktrees.list()
    expect(listed).toMatchObject({ taskId, state: 'stopped' })
    expect(await h.services.worktrees.orphans()).toEqual([])
    h.fake.enqueue({ toolCalls: [{ name: 'attempt_completion', input: { result: 'resumed' } }] })

    expect(await h.services.worktrees.recover()).toEqual([taskId])
    const again = await h.waitForApproval((item) => item.taskId === taskId)
    expect(again.args).toEqual({ command: COMMAND })
    h.services.approvals.decide({ approvalId: again.id, outcome: 'approve', scope: 'call' })
    await h.waitForEvent((e, id) => e.type === 'completion' && id === taskId, 'the resumed task to finish')

    expect((await fs.readFile(join(listed.path, 'resumed.txt'), 'utf8')).trim()).toBe(String(listed.portBase))
    expect(existsSync(join(repo, 'resumed.txt'))).toBe(false)
    expect(userGitState(repo)).toEqual(before)
    expect((await h.services.worktrees.get(listed.id))?.state).toBe('done')
  })
})
