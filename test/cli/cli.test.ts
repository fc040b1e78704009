import { everythingStdio } from '../support/mcp/servers'
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  startFakeProvider,
  toolResultsIn,
  type FakeProvider,
  type FakeTurn,
  type RecordedRequest
} from '../support/fake-provider'

const GATED_SERVER = join(__dirname, '../support/mcp/gated-server.mjs')
import { runCli } from '../support/run-cli'

let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

async function setup(turns: FakeTurn[], files: Record<string, string> = {}) {
  fake = await startFakeProvider({ name: 'cli', turns })
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-cli-data-'))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-ws-')))
  for (const [path, content] of Object.entries(files)) writeFileSync(join(workspace, path), content)
  const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
  return { dataDir, workspace, provider, env: { MODUS_DATA_DIR: dataDir } }
}

describe('modus run', () => {
  it('streams the answer to stdout and exits 0 when the task completes', async () => {
    const { workspace, provider, env } = await setup(
      [
        { text: 'Let me look at the notes. ', toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'The notes say hello.' } }] }
      ],
      { 'notes.txt': 'hello\n' }
    )
    const run = await runCli(
      ['run', '--workspace', workspace, '--mode', 'code', ...provider, 'What do the notes say?'],
      { env }
    )
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
    expect(run.stderr).toContain('→ Read notes.txt')
    expect(run.stdout).toContain('Let me look at the notes.')
    expect(run.stdout).toContain('The notes say hello.')
    expect(toolResultsIn(fake!.requests[1])[0].text).toContain('hello')
  })

  it(
    "uses the global config's MCP servers: their tools are offered once up and an always-allowed one runs",
    { timeout: 120_000 },
    async () => {
      // Servers start beside the task: the model reads a file until the server's tool is offered.
      const offered = (request: RecordedRequest) =>
        JSON.stringify(request.body.tools ?? []).includes('mcp--everything--echo')
      let echoed = false
      let waits = 0
      const turn = async (request: RecordedRequest) => {
        if (echoed) return { toolCalls: [{ name: 'attempt_completion', input: { result: 'Echoed.' } }] }
        // Each wait searches for something else: identical calls repeated would trip the repetition check.
        if (!offered(request))
          return (
            await new Promise((r) => setTimeout(r, 200)),
            { toolCalls: [{ name: 'search_files', input: { path: '.', regex: `wait${waits++}` } }] }
          )
        echoed = true
        return { toolCalls: [{ name: 'mcp--everything--echo', input: { message: 'from the CLI' } }] }
      }
      const { dataDir, workspace, provider, env } = await setup(Array(100).fill(turn), { 'notes.txt': 'hello\n' })
      writeFileSync(
        join(dataDir, 'mcp.json'),
        JSON.stringify({ mcpServers: { everything: everythingStdio({ alwaysAllow: ['echo'] }) } })
      )
      const run = await runCli(['run', '--workspace', workspace, ...provider, '--non-interactive', 'echo it'], { env })
      expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
      const echo = fake!.requests.findIndex(offered)
      expect(toolResultsIn(fake!.requests.at(-1)!)[0].text).toBe('Echo: from the CLI')
      expect(echo).toBeGreaterThanOrEqual(0)
    }
  )

  it(
    'the first request leaves without waiting for a server that is slow to start, in a mode that uses it',
    { timeout: 120_000 },
    async () => {
      const { dataDir, workspace, provider, env } = await setup([
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done without it.' } }] }
      ])
      const gate = join(dataDir, 'never-opened')
      writeFileSync(
        join(dataDir, 'mcp.json'),
        JSON.stringify({ mcpServers: { slow: { command: process.execPath, args: [GATED_SERVER, gate] } } })
      )
      const run = await runCli(
        ['run', '--workspace', workspace, '--mode', 'code', ...provider, '--non-interactive', 'go'],
        { env }
      )
      expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
      // The server never got past its start (its gate was never opened), and the task ran to the end.
      expect(fake!.requests).toHaveLength(1)
      expect(JSON.stringify(fake!.requests[0].body.tools)).not.toContain('mcp--slow--')
      expect(run.stdout).toContain('Done without it.')
    }
  )

  it('--json --non-interactive streams events as JSON lines and denies what needs approval', async () => {
    const { workspace, provider, env } = await setup([
      { toolCalls: [{ name: 'execute_command', input: { command: 'touch made-by-command' } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Could not run it.' } }] }
    ])
    const run = await runCli(
      ['run', '--workspace', workspace, ...provider, '--json', '--non-interactive', 'make a file'],
      { env }
    )
    // Completed, but what it needed was refused: a distinct exit code, not success.
    expect(run.code).toBe(4)
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const events = lines.filter((l) => l.event).map((l) => l.event)
    expect(events.some((e) => e.type === 'approval-resolved' && e.outcome === 'rejected')).toBe(true)
    expect(lines.some((l) => l.approval?.tool === 'execute_command')).toBe(true)
    expect(lines.at(-1)).toMatchObject({ end: { status: 'completed', exitCode: 4 } })
    expect(toolResultsIn(fake!.requests[1])[0].text).toContain('non-interactively')
    expect(() => readFileSync(join(workspace, 'made-by-command'))).toThrow()
  })

  it('asks approvals on the terminal: an answer typed on stdin runs the command', async () => {
    const { workspace, provider, env } = await setup([
      { toolCalls: [{ name: 'execute_command', input: { command: 'echo approved > out.txt' } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Ran it.' } }] }
    ])
    const run = await runCli(['run', '--workspace', workspace, ...provider, 'write out.txt'], { env, stdin: 'y\n' })
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('Approval needed')
    expect(readFileSync(join(workspace, 'out.txt'), 'utf8').trim()).toBe('approved')
  })

  it('prints model text with its control characters visible, so it cannot repaint the terminal', async () => {
    const disguised = 'rm -rf ~/important; \x1b[2K\r\x1b[1A\x1b[2KRun ls -la \u202e'
    const { workspace, provider, env } = await setup([
      { toolCalls: [{ name: 'execute_command', input: { command: disguised } }] },
      {
        text: 'Stopped \x1b]0;pwned\x07 here.',
        toolCalls: [{ name: 'attempt_completion', input: { result: 'Done\x1b[8m hidden' } }]
      }
    ])
    const run = await runCli(['run', '--workspace', workspace, ...provider, 'clean up'], { env, stdin: 'n\n\n' })
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/)
    }
    // The command itself is refused upstream as invalid arguments; the reply and result still reach the terminal.
    expect(run.stdout).toContain('\\x1b]0;pwned\\x07')
    expect(run.stdout).toContain('Done\\x1b[8m hidden')
  })

  it('exits non-zero with the provider error when the key is rejected', async () => {
    const { workspace, provider, env } = await setup([{ error: { status: 401, message: 'invalid x-api-key' } }])
    const run = await runCli(['run', '--workspace', workspace, ...provider, 'anything'], { env })
    expect(run.code).toBe(1)
    expect(run.stderr.toLowerCase()).toContain('key')
  })

  it('a usage error exits 2 and says what is missing', async () => {
    const run = await runCli(['run', 'no workspace given'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--workspace')
  })
})

describe('modus prompt', () => {
  it('prints the system prompt and tools of a mode with their o200k token count, within the budget', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'modus-cli-data-'))
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-ws-')))
    writeFileSync(join(workspace, 'AGENTS.md'), 'Always run npm test before finishing.\n')
    const run = await runCli(['prompt', '--mode', 'code', '--workspace', workspace, '--json'], {
      env: { MODUS_DATA_DIR: dataDir }
    })
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report.system).toContain('Always run npm test before finishing.')
    expect(report.tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['read_file', 'apply_diff', 'execute_command', 'attempt_completion'])
    )
    expect(report.totalTokens).toBe(report.systemTokens + report.toolTokens)
    expect(report.totalTokens).toBeGreaterThan(500)
    expect(report.totalTokens).toBeLessThanOrEqual(3_800)
    console.log(
      `modus prompt --mode code: ${report.systemTokens} + ${report.toolTokens} = ${report.totalTokens} o200k tokens`
    )
  })

  it(
    'shows what a cloned project wrote (rules, file and server names) with its control characters visible',
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'modus-cli-data-'))
      const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-ws-')))
      // A line that clears the screen and returns the cursor, to paint over what the terminal shows.
      writeFileSync(join(workspace, 'AGENTS.md'), 'Be brief.\x1b[2J\x1b[H\rAll clear.\n')
      mkdirSync(join(workspace, '.modus', 'rules'), { recursive: true })
      symlinkSync('/etc/hostname', join(workspace, '.modus', 'rules', 'x\x1b[2Kname.md'))
      writeFileSync(
        join(workspace, '.modus', 'mcp.json'),
        JSON.stringify({ mcpServers: { 'srv\x1b[2K\r': { args: ['no command'] } } })
      )
      const run = await runCli(['prompt', '--mode', 'code', '--workspace', workspace], {
        env: { MODUS_DATA_DIR: dataDir }
      })
      expect(run.code).toBe(0)
      expect(run.stdout + run.stderr).not.toMatch(/[\x1b\r]/)
      expect(run.stdout).toContain('Be brief.\\x1b[2J\\x1b[H\\rAll clear.')
      expect(run.stdout).toContain('x\\x1b[2Kname.md')
      expect(run.stderr).toContain('srv\\x1b[2K\\r')
    }
  )

  it(
    'counts the MCP tool schemas against the budget: within it they are sent, over it search_mcp_tools and use_mcp_tool stand in',
    { timeout: 240_000 },
    async () => {
      const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-ws-')))
      const promptWith = async (budget: number, asText: boolean) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'modus-cli-data-'))
        writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: everythingStdio() } }))
        writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ mcp: { schemaTokenBudget: budget } }))
        const [text, json] = await Promise.all([
          asText
            ? runCli(['prompt', '--mode', 'code', '--workspace', workspace], { env: { MODUS_DATA_DIR: dataDir } })
            : undefined,
          runCli(['prompt', '--mode', 'code', '--workspace', workspace, '--json'], { env: { MODUS_DATA_DIR: dataDir } })
        ])
        expect(json.code).toBe(0)
        return { text: text?.stdout ?? '', report: JSON.parse(json.stdout) }
      }
      // Independent runs side by side: each waits ~2 s at exit for the reference server to end.
      const [within, over] = await Promise.all([promptWith(1_000_000, false), promptWith(100, true)])
      expect(within.report.mcp).toMatchObject({ budget: 1_000_000, onDemand: false })
      expect(within.report.mcp.schemaTokens).toBeGreaterThan(100)
      expect(within.report.tools.map((t: { name: string }) => t.name)).toContain('mcp--everything--echo')
      expect(within.report.tools.map((t: { name: string }) => t.name)).not.toContain('search_mcp_tools')

      expect(over.report.mcp).toMatchObject({
        schemaTokens: within.report.mcp.schemaTokens,
        budget: 100,
        onDemand: true
      })
      const names: string[] = over.report.tools.map((t: { name: string }) => t.name)
      expect(names).toEqual(expect.arrayContaining(['search_mcp_tools', 'use_mcp_tool']))
      expect(names.filter((name) => name.startsWith('mcp--'))).toEqual([])
      expect(over.report.toolTokens).toBeLessThan(within.report.toolTokens)
      expect(over.text).toContain('over the budget of 100: not sent; the model finds them with search_mcp_tools')
      console.log(
        `modus prompt --mode code with the everything server: tools ${within.report.toolTokens} tokens within the budget, ${over.report.toolTokens} on demand`
      )
    }
  )
})
