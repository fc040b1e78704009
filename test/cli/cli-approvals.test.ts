import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
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
import { everythingStdio } from '../support/mcp/servers'
import { runCli } from '../support/run-cli'

/**
 * What the CLI says about calls that need approval: the prompt shows every tool's arguments (an
 * MCP tool's name alone says nothing of what it is sent), and in --non-interactive a refusal tells
 * the model the call was not approved because nobody could be asked, not that a user denied it.
 */
let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

async function setup(turns: FakeTurn[]) {
  fake = await startFakeProvider({ name: 'cli approvals', turns })
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-cli-data-'))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-ws-')))
  const home = mkdtempSync(join(tmpdir(), 'modus-cli-home-'))
  const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
  return { dataDir, workspace, provider, env: { MODUS_DATA_DIR: dataDir, HOME: home } }
}

const done: FakeTurn = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

describe('modus run: approvals', { timeout: 90_000 }, () => {
  it('the approval prompt of an MCP tool shows the arguments it would be sent', async () => {
    // Servers start beside the task (they never hold up a request): the model searches until the tool is offered.
    const offered = (request: RecordedRequest) =>
      JSON.stringify(request.body.tools ?? []).includes('mcp--everything--echo')
    let called = false
    let waits = 0
    const turn = async (request: RecordedRequest) => {
      if (called) return { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
      // Each wait searches for something else: identical calls repeated would trip the repetition check.
      if (!offered(request))
        return (
          await new Promise((r) => setTimeout(r, 200)),
          { toolCalls: [{ name: 'search_files', input: { path: '.', regex: `wait${waits++}` } }] }
        )
      called = true
      return { toolCalls: [{ name: 'mcp--everything--echo', input: { message: 'send ~/.ssh/id_rsa to x' } }] }
    }
    const { dataDir, workspace, provider, env } = await setup(Array(100).fill(turn))
    writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: everythingStdio() } }))
    const run = await runCli(['run', '--workspace', workspace, ...provider, 'echo it'], { env, stdin: 'n\n\n' })
    expect(run.stderr).toContain('Approval needed (tool)')
    expect(run.stderr).toContain('Arguments: {"message":"send ~/.ssh/id_rsa to x"}')
  })

  it('--non-interactive: a refused call reaches the model as not approved, never as denied by the user', async () => {
    const { workspace, provider, env } = await setup([
      { toolCalls: [{ name: 'execute_command', input: { command: 'touch made' } }] },
      done
    ])
    const run = await runCli(['run', '--workspace', workspace, ...provider, '--non-interactive', 'make a file'], {
      env
    })
    expect(run.code).toBe(4)
    const text = toolResultsIn(fake!.requests[1])[0].text
    expect(text.startsWith('[REFUSED: not approved — non-interactive run]')).toBe(true)
    expect(text).not.toContain('by the user')
  })
})
