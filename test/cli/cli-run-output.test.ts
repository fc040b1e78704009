import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../support/fake-provider'
import { runCli } from '../support/run-cli'

// Each case starts the CLI in its own Node process through jiti: seconds each on a busy machine.

// A port nothing listens on: a run that used it would fail to connect.
const DEAD_URL = 'http://127.0.0.1:9'

let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

const done: FakeTurn = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] }

async function setup(turns: FakeTurn[], settings?: (fake: FakeProvider) => unknown) {
  fake = await startFakeProvider({ name: 'cli-output', turns })
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-cli-data-'))
  if (settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settings(fake)))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-ws-')))
  return { fake, workspace, env: { MODUS_DATA_DIR: dataDir } }
}

describe('modus run: base URL precedence', { timeout: 90_000 }, () => {
  it('uses ANTHROPIC_BASE_URL when neither --base-url nor the settings give one', async () => {
    const { fake, workspace, env } = await setup([done])
    const run = await runCli(
      ['run', '--workspace', workspace, '--provider', 'anthropic', '--model', 'claude-sonnet-4-6', 'hi'],
      {
        env: { ...env, ANTHROPIC_BASE_URL: fake.anthropicBaseUrl }
      }
    )
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
    expect(fake.requests).toHaveLength(1)
  })

  it('uses OPENAI_BASE_URL for an OpenAI provider', async () => {
    const { fake, workspace, env } = await setup([done])
    const run = await runCli(['run', '--workspace', workspace, '--provider', 'openai', '--model', 'gpt-4o', 'hi'], {
      env: { ...env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl }
    })
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
    expect(fake.requests[0]?.path).toBe('/v1/chat/completions')
  })

  it('--base-url wins over the environment variable', async () => {
    const { fake, workspace, env } = await setup([done])
    const run = await runCli(
      [
        'run',
        '--workspace',
        workspace,
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-6',
        '--base-url',
        fake.anthropicBaseUrl,
        'hi'
      ],
      { env: { ...env, ANTHROPIC_BASE_URL: DEAD_URL } }
    )
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
    expect(fake.requests).toHaveLength(1)
  })

  it('the base URL in settings wins over the environment variable', async () => {
    const { fake, workspace, env } = await setup([done], (fake) => ({
      providers: [
        {
          id: 'gateway',
          kind: 'anthropic',
          label: 'Gateway',
          model: 'claude-sonnet-4-6',
          baseUrl: fake.anthropicBaseUrl
        }
      ],
      activeProviderId: 'gateway'
    }))
    // A gateway named in settings uses the key configured for it: environment keys go only to the official endpoint.
    writeFileSync(join(env.MODUS_DATA_DIR, 'secrets.json'), JSON.stringify({ 'provider:gateway': 'gateway-key' }), {
      mode: 0o600
    })
    const run = await runCli(['run', '--workspace', workspace, 'hi'], { env: { ...env, ANTHROPIC_BASE_URL: DEAD_URL } })
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
    expect(fake.requests).toHaveLength(1)
  })

  it('the environment variable applies to a settings provider without its own base URL', async () => {
    const { fake, workspace, env } = await setup([done], () => ({
      providers: [{ id: 'plain', kind: 'anthropic', label: 'Plain', model: 'claude-sonnet-4-6' }],
      activeProviderId: 'plain'
    }))
    const run = await runCli(['run', '--workspace', workspace, 'hi'], {
      env: { ...env, ANTHROPIC_BASE_URL: fake.anthropicBaseUrl }
    })
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
    expect(fake.requests).toHaveLength(1)
  })
})

describe('modus run --non-interactive', { timeout: 90_000 }, () => {
  const provider = (fake: FakeProvider) => [
    '--provider',
    'anthropic',
    '--model',
    'claude-sonnet-4-6',
    '--base-url',
    fake.anthropicBaseUrl
  ]

  it('prints each refused call with its rule and reason, each skipped call, and once that the workspace is untrusted', async () => {
    const { fake, workspace, env } = await setup([
      {
        toolCalls: [
          { name: 'execute_command', input: { command: 'touch one' } },
          { name: 'execute_command', input: { command: 'touch two' } }
        ]
      },
      { toolCalls: [{ name: 'execute_command', input: { command: 'touch three' } }] },
      done
    ])
    const run = await runCli(['run', '--workspace', workspace, ...provider(fake), '--non-interactive', 'make files'], {
      env
    })
    // Every action refused: the run says so in its exit code too.
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 4 })
    const lines = run.stderr.split('\n')
    const refused = lines.filter((line) => line.includes('⛔ refused:'))
    expect(refused).toHaveLength(2)
    expect(refused[0]).toMatch(/refused: .*touch one.*: .+ \[.+\]/)
    expect(refused[1]).toContain('touch three')
    const skipped = lines.filter((line) => line.includes('⏭ skipped:'))
    expect(skipped).toHaveLength(1)
    expect(skipped[0]).toContain('touch two')
    expect(lines.filter((line) => line.includes('workspace is not trusted'))).toHaveLength(1)
    expect(run.stderr).toContain('--trust')
  })

  it('prints a refused mistake-limit pause once, with its rule', async () => {
    const invalid: FakeTurn = { toolCalls: [{ name: 'read_file', input: {} }] }
    const { fake, workspace, env } = await setup([invalid, invalid, invalid])
    const run = await runCli(
      ['run', '--workspace', workspace, ...provider(fake), '--non-interactive', '--trust', 'read'],
      { env }
    )
    expect(run.code).toBe(3)
    const refused = run.stderr.split('\n').filter((line) => line.includes('⛔ refused:'))
    expect(refused).toHaveLength(1)
    expect(refused[0]).toContain('[mistake-limit]')
    expect(refused[0]?.split('mistakes in a row')).toHaveLength(2)
  })

  it('says nothing about trust when the run trusts the workspace', async () => {
    const { fake, workspace, env } = await setup([done])
    const run = await runCli(
      ['run', '--workspace', workspace, ...provider(fake), '--non-interactive', '--trust', 'hi'],
      { env }
    )
    expect(run.code).toBe(0)
    expect(run.stderr).not.toContain('not trusted')
  })
})

describe('modus run output', { timeout: 90_000 }, () => {
  const provider = (fake: FakeProvider) => [
    '--provider',
    'anthropic',
    '--model',
    'claude-sonnet-4-6',
    '--base-url',
    fake.anthropicBaseUrl
  ]

  it('--json starts with the task’s first events', async () => {
    const { fake, workspace, env } = await setup([done])
    const run = await runCli(['run', '--workspace', workspace, ...provider(fake), '--json', 'say hi'], { env })
    expect(run.code).toBe(0)
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.event)
      .map((line) => line.event)
    // The turn's checkpoint marker may come first; the task's own first events must not be dropped.
    const taskEvents = events.filter((e) => e.type !== 'checkpoint')
    expect(
      taskEvents
        .slice(0, 2)
        .map((e) => e.type)
        .sort()
    ).toEqual(['status', 'user-message'])
    expect(events.find((e) => e.type === 'status')).toMatchObject({ status: 'running' })
    expect(events.find((e) => e.type === 'user-message')).toMatchObject({ text: 'say hi' })
  })

  it('keeps replies apart, marks a cut-off answer, and names a call with invalid arguments', async () => {
    const { fake, workspace, env } = await setup([
      { text: 'First reply.', toolCalls: [{ name: 'read_file', input: {} }] },
      { text: 'Second reply, cut', stopReason: 'max_tokens' },
      { text: 'Third reply.', toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] }
    ])
    const run = await runCli(['run', '--workspace', workspace, ...provider(fake), 'go'], { env })
    expect(run.stdout).toContain('First reply.\n')
    expect(run.stdout).toMatch(/Second reply, cut\n/)
    expect(run.stdout).toContain('\nThird reply.')
    expect(run.stderr).toContain('→ read_file (invalid arguments)')
    expect(run.stderr).not.toContain('undefined')
    expect(run.stderr).toMatch(/cut off/)
  })
})
