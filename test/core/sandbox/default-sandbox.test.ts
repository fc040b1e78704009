import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import type { ModeConfigInput } from '../../../src/shared/modes/schema'
import { createHarness, type Harness, type HarnessOptions } from '../agent/support/harness'

/**
 * The sandbox as the default boundary (issues #26 §1–2, #25 §1), through real tasks: the fake model
 * over loopback, the real pty, real bubblewrap, a temporary HOME holding credentials to steal.
 * The built-in Code mode sandboxes `npm test` with no setting touched; in a folder nobody trusted, the
 * repository's own code (npm scripts, pytest's conftest.py) runs only inside a sandbox, and where none
 * can start, every command asks and says why.
 */
const home = realpathSync(mkdtempSync(join(tmpdir(), 'modus-home-')))
const realHome = process.env.HOME
beforeAll(() => {
  process.env.HOME = home
  mkdirSync(join(home, '.ssh'))
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n')
  writeFileSync(join(home, '.npmrc'), '//registry.example/:_authToken=NPM-TOKEN-MATERIAL\n')
})
afterAll(() => {
  process.env.HOME = realHome
})

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

/** A test script as an attacker writes it: copy every secret it can reach into the workspace, and plant a file in HOME. */
const STEAL = [
  'cat "$HOME/.ssh/id_rsa" > stolen-key.txt',
  'cat "$HOME/.npmrc" > stolen-npmrc.txt',
  'cat "$MODUS_DATA/secrets.json" > stolen-secrets.txt',
  'echo test-ran'
].join('\n')

const npmProject = {
  'package.json': JSON.stringify({ name: 'fixture', version: '1.0.0', scripts: { test: 'sh steal.sh' } }),
  'steal.sh': STEAL
}

async function start(
  options: HarnessOptions & { command: string; mode?: string }
): Promise<{ h: Harness; taskId: string }> {
  const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-data-')))
  writeFileSync(join(dataDir, 'secrets.json'), '{"anthropic":"SECRET-FILE-MATERIAL"}\n')
  const turns = [
    { toolCalls: [{ name: 'execute_command', input: { command: options.command } }] },
    { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
  ]
  harness = await createHarness({
    ...options,
    home,
    dataDir,
    turns,
    files: { ...options.files, 'steal.sh': STEAL.replace('$MODUS_DATA', dataDir) }
  })
  const task = await harness.services.tasks.start({
    text: 'run the tests',
    mode: options.mode ?? 'code',
    workspace: harness.workspace
  })
  return { h: harness, taskId: task.id }
}

/** The execute_command result as the model received it in its next request. */
function resultSentToModel(h: Harness): string {
  const last = h.fake.requests.filter((r) => r.path.endsWith('/messages')).at(-1)!.body
  const blocks = last.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
  const result = blocks.find((b: { type: string }) => b.type === 'tool_result')
  return (Array.isArray(result.content) ? result.content : [{ text: result.content }])
    .map((b: { text?: string }) => b.text ?? '')
    .join('')
}

/** Nothing secret reached the workspace. (HOME lies in the temp dir here, which is writable: writes are tested elsewhere.) */
function expectNothingStolen(h: Harness): void {
  for (const file of ['stolen-key.txt', 'stolen-npmrc.txt', 'stolen-secrets.txt']) {
    const path = join(h.workspace, file)
    if (existsSync(path)) expect(readFileSync(path, 'utf8')).not.toMatch(/MATERIAL/)
  }
}

/** The task's completion; pytest alone takes ~10 s on a loaded machine, past the harness's own wait. */
async function completed(h: Harness, taskId: string): Promise<void> {
  const deadline = Date.now() + 100_000
  while (!h.eventsOf(taskId).some((e) => e.type === 'completion')) {
    if (Date.now() > deadline)
      throw new Error(
        `no completion; last events: ${JSON.stringify(
          h
            .eventsOf(taskId)
            .slice(-6)
            .map((e) => e.type)
        )}`
      )
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('the built-in Code mode, no setting touched', () => {
  it('runs `npm test` in the sandbox unasked (trusted folder): its script cannot read ~/.ssh/id_rsa, ~/.npmrc or the secrets file', async () => {
    const { h, taskId } = await start({ command: 'npm test', files: npmProject, trusted: true })
    await completed(h, taskId)
    expect(h.services.approvals.list()).toEqual([])
    const sent = resultSentToModel(h)
    expect(sent).toContain('test-ran')
    expectNothingStolen(h)
    expect(sent).toMatch(
      /Sandbox: blocked .*reads? of .*\.ssh.*\(a credential store, unreadable in the sandbox unless the mode gives it back/
    )
  }, 120_000)

  it('gives a credential store back to a mode that lists it (here ~/.npmrc), and only that one', async () => {
    const code: ModeConfigInput = {
      slug: 'code',
      name: 'Code',
      roleDefinition: 'You write code.',
      groups: ['read', 'edit', 'command'],
      autoApprove: { read: true, command: true },
      commandRules: { allow: ['npm test *'] },
      sandbox: { enabled: true, network: 'ask', readableCredentials: ['npmrc'] }
    }
    const { h, taskId } = await start({ command: 'npm test', files: npmProject, modes: [code], trusted: true })
    await completed(h, taskId)
    expect(readFileSync(join(h.workspace, 'stolen-npmrc.txt'), 'utf8')).toContain('NPM-TOKEN-MATERIAL')
    expect(readFileSync(join(h.workspace, 'stolen-key.txt'), 'utf8')).toBe('')
    expect(readFileSync(join(h.workspace, 'stolen-secrets.txt'), 'utf8')).toBe('')
  }, 120_000)
})

describe('a folder nobody trusted: its code runs unasked only inside a sandbox', () => {
  it('npm test (the package scripts) in Code mode: sandboxed, nothing stolen', async () => {
    const { h, taskId } = await start({ command: 'npm test', files: npmProject })
    await completed(h, taskId)
    expect(h.services.approvals.list()).toEqual([])
    expect(resultSentToModel(h)).toContain('test-ran')
    expectNothingStolen(h)
  }, 120_000)

  it("pytest (the repository's conftest.py) in a mode of the user's own without a sandbox: the default sandbox applies", async () => {
    const plain: ModeConfigInput = {
      slug: 'plain',
      name: 'Plain',
      roleDefinition: 'You run tests.',
      groups: ['read', 'command'],
      autoApprove: { read: true, command: true },
      commandRules: { allow: ['pytest *'] }
    }
    const conftest = [
      'import os, pathlib',
      'home = os.environ["HOME"]',
      'for name in [".ssh/id_rsa", ".npmrc"]:',
      '    try:',
      '        pathlib.Path("stolen-key.txt").write_text(open(os.path.join(home, name)).read())',
      '    except OSError as error:',
      '        print("refused:", error)',
      ''
    ].join('\n')
    const { h, taskId } = await start({
      command: 'pytest -q -s',
      mode: 'plain',
      modes: [plain],
      files: { 'conftest.py': conftest, 'test_one.py': 'def test_one():\n    assert True\n' }
    })
    await completed(h, taskId)
    expect(h.services.approvals.list()).toEqual([])
    expect(resultSentToModel(h)).toContain('1 passed')
    expectNothingStolen(h)
  }, 120_000)

  it('where no sandbox can start, `npm test` asks and says why; trusting the folder lifts that for the allow list', async () => {
    const unavailable = (askNetwork: Parameters<NonNullable<HarnessOptions['sandbox']>>[0]) =>
      createSandboxService({ askNetwork, path: () => '/nonexistent' })
    const { h } = await start({ command: 'npm test', files: npmProject, sandbox: unavailable })
    const item = await h.waitForApproval((i) => i.tool === 'execute_command')
    expect(item.reason).toContain('This folder is not trusted: `npm test` runs its code, and no sandbox can start here')
    expect(item.reason).toContain('bubblewrap (bwrap), socat, ripgrep (rg) are not installed')
    expect(item.suggestedRule).toBeUndefined()
    expect(existsSync(join(h.workspace, 'stolen-key.txt'))).toBe(false)
    await h.close()
    harness = undefined

    const trusted = await start({ command: 'npm test', files: npmProject, sandbox: unavailable, trusted: true })
    await completed(trusted.h, trusted.taskId)
    expect(trusted.h.services.approvals.list()).toEqual([])
    expect(resultSentToModel(trusted.h)).toContain('test-ran')
  }, 120_000)
})
