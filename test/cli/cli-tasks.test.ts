import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../support/fake-provider'
import { runCli } from '../support/run-cli'

// Each step starts the CLI in its own Node process through jiti: seconds each on a busy machine.

let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

async function setup(turns: FakeTurn[]) {
  fake = await startFakeProvider({ name: 'cli-tasks', turns })
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-cli-data-'))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-ws-')))
  const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
  return { fake, workspace, provider, env: { MODUS_DATA_DIR: dataDir } }
}

/** Starts `modus run` and kills it (as a crash would) once its approval prompt is on screen. */
function runUntilApprovalThenKill(args: string[], env: Record<string, string>): Promise<string> {
  return runUntil(args, env, 'stderr', '[y]es', 'SIGKILL')
}

/** Starts `modus run` and sends it `signal` once `seen` is on the given stream; resolves with that stream's text. */
function runUntil(
  args: string[],
  env: Record<string, string>,
  stream: 'stdout' | 'stderr',
  seen: string,
  signal: NodeJS.Signals
): Promise<string> {
  const root = resolve(__dirname, '../..')
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/jiti/lib/jiti-cli.mjs'), join(root, 'src/cli/main.ts'), ...args],
    {
      cwd: root,
      env: { ...process.env, ANTHROPIC_API_KEY: 'test-key', ...env },
      stdio: ['pipe', 'pipe', 'pipe']
    }
  )
  let text = ''
  let sent = false
  return new Promise((done) => {
    child[stream].on('data', (d: Buffer) => {
      text += d.toString()
      if (!sent && text.includes(seen)) child.kill(signal)
      sent ||= text.includes(seen)
    })
    child.on('exit', () => done(text))
  })
}

describe('modus tasks / modus resume', { timeout: 240_000 }, () => {
  it('lists the workspace’s tasks and resumes the latest failed one where it stopped', async () => {
    const { fake, workspace, provider, env } = await setup([
      { error: { status: 400, message: 'The fake model refuses this once' } }
    ])
    const first = await runCli(['run', '--workspace', workspace, ...provider, 'Summarise the notes'], { env })
    expect(first.code).toBe(1)

    const listed = await runCli(['tasks', '--workspace', workspace], { env })
    expect(listed.code).toBe(0)
    const lines = listed.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^[0-9a-z-]{8} {2}failed +code +\d{4}-\d\d-\d\d \d\d:\d\d {2}Summarise the notes$/)

    fake.enqueue({
      text: 'Picking up again.',
      toolCalls: [{ name: 'attempt_completion', input: { result: 'The notes are summarised.' } }]
    })
    const resumed = await runCli(['resume', '--workspace', workspace, ...provider], { env })
    expect({ code: resumed.code, stderr: resumed.stderr }).toMatchObject({ code: 0 })
    expect(resumed.stderr).toContain('resuming')
    expect(resumed.stdout).toContain('The notes are summarised.')
    expect((await runCli(['tasks', '--workspace', workspace], { env })).stdout).toMatch(/completed/)

    // A finished task goes on only with a message, named by the start of its id.
    const id = lines[0].slice(0, 8)
    const refused = await runCli(['resume', id, '--workspace', workspace, ...provider], { env })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('add a message')
    // --mode takes effect with a message; without one it is refused, not silently dropped.
    const bareSwitch = await runCli(['resume', id, '--mode', 'ask', '--workspace', workspace, ...provider], { env })
    expect({ code: bareSwitch.code, stderr: bareSwitch.stderr }).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--mode switches the task')
    })
    fake.enqueue({
      toolCalls: [{ name: 'attempt_completion', input: { result: 'Added the summary to the README too.' } }]
    })
    const more = await runCli(
      ['resume', id, '--workspace', workspace, ...provider, 'also', 'update', 'the', 'README'],
      { env }
    )
    expect(more.code).toBe(0)
    expect(more.stdout).toContain('Added the summary to the README too.')
    expect(JSON.stringify(fake.requests.at(-1))).toContain('also update the README')
  })

  it('asks a pending approval again after the run was killed while waiting for it', async () => {
    const { fake, workspace, provider, env } = await setup([
      { toolCalls: [{ name: 'execute_command', input: { command: 'echo resumed > out.txt' } }] }
    ])
    const killed = await runUntilApprovalThenKill(['run', '--workspace', workspace, ...provider, 'write out.txt'], env)
    expect(killed).toContain('Approval needed')

    fake.enqueue({ toolCalls: [{ name: 'attempt_completion', input: { result: 'Wrote it.' } }] })
    const resumed = await runCli(['resume', '--workspace', workspace, ...provider], { env, stdin: 'y\n' })
    expect({ code: resumed.code, stderr: resumed.stderr }).toMatchObject({ code: 0 })
    expect(resumed.stderr).toContain('Approval needed')
    expect(readFileSync(join(workspace, 'out.txt'), 'utf8').trim()).toBe('resumed')
  })

  it('picks up a task stopped with Ctrl-C mid-answer without a message', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i} `)
    const { fake, workspace, provider, env } = await setup([{ text: words, chunkDelayMs: 150 }])
    const stopped = await runUntil(
      ['run', '--workspace', workspace, ...provider, 'Count slowly'],
      env,
      'stdout',
      'word1 ',
      'SIGINT'
    )
    expect(stopped).toContain('word1')
    expect((await runCli(['tasks', '--workspace', workspace], { env })).stdout).toMatch(/cancelled/)

    fake.enqueue({
      text: 'Carrying on.',
      toolCalls: [{ name: 'attempt_completion', input: { result: 'Counted to forty.' } }]
    })
    const resumed = await runCli(['resume', '--workspace', workspace, ...provider], { env })
    expect({ code: resumed.code, stderr: resumed.stderr }).toMatchObject({ code: 0 })
    expect(resumed.stdout).toContain('Counted to forty.')
    expect(JSON.stringify(fake.requests.at(-1))).toContain('interrupted')
  })
})
