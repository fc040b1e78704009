import { promises as fs, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { it } from 'vitest'
import { createPolicyGate } from '../src/main/core/loop/policy-gate'
import { createMcpHub } from '../src/main/core/mcp/hub'
import { createMcpPort } from '../src/main/core/mcp/mcp-port'
import { registerMcpTools } from '../src/main/core/tools/register-mcp-tools'
import { openTaskLogWriter } from '../src/main/core/store/task-log'
import { createCodeParser } from '../src/main/core/code-index/parser'
import { createBrowserSessions } from '../src/main/core/browser/browser-sessions'
import { createBuiltInExecutors } from '../src/main/core/tools/executors'
import { createToolRegistry } from '../src/main/core/tools/registry'
import { defaultSettings } from '../src/main/core/settings/settings-schema'
import { BUILT_IN_MODES } from '../src/shared/modes/builtin'
import { resolveModes } from '../src/shared/modes/resolve'
import { EVERYTHING_ENTRY } from '../test/support/mcp/servers'

/**
 * One MCP tool round trip (`echo` of the reference server over stdio), same run, same machine:
 * the bare SDK client call, and the call as Modus makes it for the model — validation against the
 * mode and the tool's input schema, the policy decision, the call, the result converted, the
 * call and result appended to the task's JSONL log by the task log writer (a write on an open
 * descriptor per record: in the OS's hands at once, so a kill -9 loses nothing; the fsync after a
 * result runs off the loop, coalesced). Beside it, the same path with the two `fs.appendFile`
 * calls this benchmark used to stand in for the log (open, write, close on libuv's pool, each).
 */
const CALLS = 500
const WARMUP = 50

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return `median ${percentile(sorted, 50).toFixed(3)} ms, p95 ${percentile(sorted, 95).toFixed(3)} ms`
}

it('MCP tool round trip: Modus beside the bare SDK client', async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-mcp-bench-')))
  writeFileSync(
    join(dir, 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], alwaysAllow: ['echo'] }
      }
    })
  )
  const bare = new Client({ name: 'bench', version: '1' })
  await bare.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], stderr: 'ignore' })
  )

  const hub = createMcpHub({ dataDir: dir, env: process.env, isTrusted: () => true })
  await hub.open(dir)
  await hub.settled()
  const modes = resolveModes({ builtIns: BUILT_IN_MODES })
  const port = createMcpPort({ hub, modeServers: () => 'all' })
  const codeParser = createCodeParser()
  const registry = createToolRegistry(
    createBuiltInExecutors({ codeParser, mcp: port, browsers: createBrowserSessions() })
  )
  const stop = registerMcpTools(hub, port, registry)
  const gate = createPolicyGate({
    modes: () => modes,
    policy: () => defaultSettings().policy,
    isTrusted: () => true,
    runtimeTools: () => registry.runtimeDefinitions(),
    mcp: port
  })
  const log = join(dir, 'log.jsonl')
  const signal = new AbortController().signal

  const bareCall = async (i: number) => {
    await bare.callTool({ name: 'echo', arguments: { message: `m${i}` } })
  }
  const taskLog = openTaskLogWriter(join(dir, 'task.jsonl'))
  const modusCall = async (i: number, logWith: 'writer' | 'appendFile') => {
    const input = { message: `m${i}` }
    const validated = gate.validate('mcp--everything--echo', input, 'code')
    if (!validated.ok) throw new Error(validated.error)
    const verdict = await gate.decide(
      { name: validated.name, params: validated.params, definition: validated.definition },
      { taskId: 'bench', mode: 'code', workspace: dir }
    )
    if (verdict.decision !== 'allow') throw new Error(`asked: ${verdict.reason}`)
    const callId = `c${i}`
    if (logWith === 'writer')
      taskLog.append({
        r: 'event',
        event: { type: 'tool-call', at: Date.now(), messageId: 'm', callId, name: validated.name, args: input }
      })
    else await fs.appendFile(log, `${JSON.stringify({ type: 'tool-call', name: validated.name, args: input })}\n`)
    const output = await port.callExposed(validated.name, validated.params as Record<string, unknown>, {
      mode: 'code',
      signal,
      modelSupportsImages: true
    })
    if (logWith === 'writer') {
      const text = output.content.map((c) => ('text' in c ? c.text : '')).join('')
      taskLog.append({
        r: 'event',
        event: { type: 'tool-result', at: Date.now(), callId, isError: output.isError, text }
      })
      taskLog.checkpoint()
    } else
      await fs.appendFile(
        log,
        `${JSON.stringify({ type: 'tool-result', isError: output.isError, content: output.content })}\n`
      )
  }

  for (let i = 0; i < WARMUP; i++) {
    await bareCall(i)
    await modusCall(i, 'writer')
    await modusCall(i, 'appendFile')
  }
  const times: Record<'bare' | 'writer' | 'appendFile', number[]> = { bare: [], writer: [], appendFile: [] }
  for (let i = 0; i < CALLS; i++) {
    // Interleaved, so load on the shared machine hits all alike.
    let start = performance.now()
    await bareCall(i)
    times.bare.push(performance.now() - start)
    start = performance.now()
    await modusCall(i, 'writer')
    times.writer.push(performance.now() - start)
    start = performance.now()
    await modusCall(i, 'appendFile')
    times.appendFile.push(performance.now() - start)
  }
  console.log(
    `MCP echo over stdio, ${CALLS} calls each (after ${WARMUP} warm-up), load ${(await import('node:os')).loadavg()[0].toFixed(1)}:`
  )
  console.log(`  bare SDK client.callTool:                                       ${summary(times.bare)}`)
  console.log(`  Modus (validate + policy + call + convert + task log writer):   ${summary(times.writer)}`)
  console.log(`  the same with two fs.appendFile calls as the log (the old bench): ${summary(times.appendFile)}`)
  taskLog.close()
  stop()
  codeParser.dispose()
  await hub.dispose()
  await bare.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * What a task waits for MCP before its first model request: `hub.open()` (the config read and, with
 * servers, the SDK loaded; servers start behind it), beside the old wait for every server to connect.
 */
it('MCP: time to the first request with 0 and 3 servers', async () => {
  const rows: string[] = []
  for (const count of [0, 3]) {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-mcp-first-')))
    const servers = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `s${i}`,
        { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] }
      ])
    )
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: servers }))
    const hub = createMcpHub({ dataDir: dir, env: process.env, isTrusted: () => true, watchConfig: false })
    const t = performance.now()
    await hub.open(dir)
    const firstRequestMs = performance.now() - t
    await hub.settled()
    const allConnectedMs = performance.now() - t
    rows.push(
      `${count} servers: first request may leave after ${firstRequestMs.toFixed(0)} ms; all servers connected after ${allConnectedMs.toFixed(0)} ms (what it waited before)`
    )
    await hub.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`${rows.join('\n')}\nload ${(await import('node:os')).loadavg()[0].toFixed(1)}`)
})
