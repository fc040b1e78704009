import { mkdtempSync, promises as fs, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createMcpHub, type McpHub } from '../../../src/main/core/mcp/hub'
import { toolNamesOf, toolResultsIn, type RecordedRequest } from '../../support/fake-provider'
import { everythingStdio } from '../../support/mcp/servers'
import { createDeferredDisposals } from '../../support/deferred-disposals'
import { createHarness, type Harness } from './support/harness'

let harness: Harness | undefined
let hub: McpHub | undefined
const hubDisposals = createDeferredDisposals()
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  if (hub) hubDisposals.add(hub.dispose())
  harness = undefined
  hub = undefined
})
afterAll(() => hubDisposals.settle())

const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

async function withServers(servers: Record<string, unknown>, options: Parameters<typeof createHarness>[0] = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-data-'))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-ws-')))
  await fs.writeFile(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2))
  hub = createMcpHub({
    dataDir,
    env: process.env,
    isTrusted: () => false,
    backoff: { baseMs: 50, maxMs: 100, maxRestarts: 1 }
  })
  await hub.open(workspace)
  await hub.settled()
  harness = await createHarness({ ...options, dataDir, workspace, mcp: hub })
  return { harness, hub, dataDir }
}

describe('MCP tools in a task (reference server over stdio, fake provider)', () => {
  it('offers the server tools natively, asks naming server and tool, and the result reaches the model; "always allow" writes the narrowest entry', async () => {
    const { harness, dataDir } = await withServers(
      { everything: everythingStdio() },
      {
        turns: [
          { toolCalls: [{ name: 'mcp--everything--echo', input: { message: 'hello from the model' } }] },
          { toolCalls: [{ name: 'mcp--everything--echo', input: { message: 'second time' } }] },
          done
        ]
      }
    )
    const task = await harness.services.tasks.start({ text: 'use mcp', mode: 'code', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item).toMatchObject({ tool: 'mcp--everything--echo', summary: 'MCP everything: echo' })
    expect(item.reason).toContain("tool 'echo' of MCP server 'everything'")
    expect(item.suggestedRule?.label).toBe("Always allow tool 'echo' of MCP server 'everything'")
    const offered = modelRequests(harness)[0]
    expect(toolNamesOf(offered)).toContain('mcp--everything--echo')
    expect(toolNamesOf(offered)).not.toContain('use_mcp_tool')
    const echoSpec = (offered.body.tools as Array<{ name: string; input_schema: { required?: string[] } }>).find(
      (tool) => tool.name === 'mcp--everything--echo'
    )
    expect(echoSpec?.input_schema.required).toEqual(['message'])

    harness.services.approvals.decide({
      approvalId: item.id,
      outcome: 'approve',
      scope: 'call',
      alwaysAllow: item.suggestedRule!.rule
    })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(toolResultsIn(modelRequests(harness)[1])[0]).toMatchObject({
      text: 'Echo: hello from the model',
      isError: false
    })
    // The second call ran without asking: the server's alwaysAllow now names the tool.
    expect(toolResultsIn(modelRequests(harness)[2])[0].text).toBe('Echo: second time')
    const decisions = harness.eventsOf(task.id).filter((e) => e.type === 'tool-decision')
    expect(decisions.map((e) => (e as { rule: string }).rule)).toEqual(['default-ask', 'mcp-always-allow'])
    const config = JSON.parse(await fs.readFile(join(dataDir, 'mcp.json'), 'utf8'))
    expect(config.mcpServers.everything.alwaysAllow).toEqual(['echo'])
    expect(config.mcpServers.everything.args).toEqual(everythingStdio().args)
  })

  it('images reach a model that takes images; invalid arguments and a failed server come back as clear errors and the task goes on', async () => {
    const { harness } = await withServers(
      {
        everything: everythingStdio({ alwaysAllow: ['*'] }),
        broken: { command: process.execPath, args: ['-e', 'process.exit(1)'] }
      },
      {
        turns: [
          {
            toolCalls: [
              { name: 'mcp--everything--get-tiny-image', input: {} },
              { name: 'mcp--everything--get-sum', input: { a: 1 } },
              { name: 'mcp--broken--anything', input: {} }
            ]
          },
          done
        ]
      }
    )
    const task = await harness.services.tasks.start({ text: 'mcp results', mode: 'code', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const request = modelRequests(harness)[1]
    const results = toolResultsIn(request)
    expect(results[1]).toMatchObject({ isError: true })
    expect(results[1].text).toMatch(/get-sum.*'b'/)
    expect(results[2].isError).toBe(true)
    expect(results[2].text).toContain('Unknown tool "mcp--broken--anything"')
    const imageBlock = JSON.stringify((request.body.messages as unknown[]).at(-1))
    expect(imageBlock).toContain('"type":"image"')
    const imageEvent = harness.eventsOf(task.id).find((e) => e.type === 'tool-result' && e.images)
    expect(imageEvent).toMatchObject({ images: [{ mediaType: 'image/png' }] })
  })

  it('a mode limited to other servers never sees these tools; cancelling a long call stops the task', async () => {
    const { harness } = await withServers(
      { everything: everythingStdio({ alwaysAllow: ['*'] }) },
      {
        modes: [
          { slug: 'docs', name: 'Docs', roleDefinition: 'Docs only.', groups: ['read', 'mcp'], mcpServers: ['wiki'] },
          { slug: 'runner', name: 'Runner', roleDefinition: 'Runs things.', groups: ['read', 'mcp'] }
        ],
        turns: [
          { toolCalls: [{ name: 'mcp--everything--echo', input: { message: 'x' } }] },
          done,
          {
            toolCalls: [{ name: 'mcp--everything--trigger-long-running-operation', input: { duration: 30, steps: 30 } }]
          }
        ]
      }
    )
    const docs = await harness.services.tasks.start({ text: 'docs', mode: 'docs', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === docs.id && e.type === 'completion')
    expect(toolNamesOf(modelRequests(harness)[0]).filter((name) => name.startsWith('mcp--'))).toEqual([])
    const refused = toolResultsIn(modelRequests(harness)[1])[0]
    expect(refused.isError).toBe(true)
    expect(refused.text).toContain('Tool "mcp--everything--echo" is not allowed in docs mode')
    expect(refused.text).toContain('may not use the MCP server "everything"')

    const runner = await harness.services.tasks.start({ text: 'long', mode: 'runner', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === runner.id && e.type === 'tool-progress')
    const started = Date.now()
    await harness.services.tasks.cancel(runner.id)
    await harness.waitForEvent((e, id) => id === runner.id && e.type === 'status' && e.status === 'cancelled')
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('the repetition check covers server tools: the fourth identical call asks, and a rejection tells the model', async () => {
    const echo = { toolCalls: [{ name: 'mcp--everything--echo', input: { message: 'again' } }] }
    const { harness } = await withServers(
      { everything: everythingStdio({ alwaysAllow: ['*'] }) },
      { turns: [echo, echo, echo, echo, done] }
    )
    const task = await harness.services.tasks.start({ text: 'loop', mode: 'code', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item).toMatchObject({ kind: 'repetition', tool: 'mcp--everything--echo' })
    expect(modelRequests(harness)).toHaveLength(4)
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(toolResultsIn(modelRequests(harness)[2])[0].text).toBe('Echo: again')
    expect(toolResultsIn(modelRequests(harness)[4])[0].text).toContain('repetition limit')
  })

  it('over the schema budget the model finds a tool with search_mcp_tools and calls it with use_mcp_tool; a name not loaded is refused with the way', async () => {
    const { harness } = await withServers(
      { everything: everythingStdio({ alwaysAllow: ['*'] }) },
      {
        turns: [
          { toolCalls: [{ name: 'search_mcp_tools', input: { query: 'echo message' } }] },
          {
            toolCalls: [
              {
                name: 'use_mcp_tool',
                input: { server_name: 'everything', tool_name: 'echo', arguments: { message: 'found it' } }
              },
              { name: 'mcp--everything--echo', input: { message: 'direct' } }
            ]
          },
          done
        ]
      }
    )
    await harness.settings.update((s) => ({ ...s, mcp: { schemaTokenBudget: 50 } }))
    const task = await harness.services.tasks.start({ text: 'find a tool', mode: 'code', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const offered = toolNamesOf(modelRequests(harness)[0])
    expect(offered).toEqual(expect.arrayContaining(['search_mcp_tools', 'use_mcp_tool']))
    expect(offered.filter((name) => name.startsWith('mcp--'))).toEqual([])
    const found = toolResultsIn(modelRequests(harness)[1])[0]
    expect(found.text).toContain('## server_name: everything, tool_name: echo')
    expect(found.text).toContain('"required":["message"]')
    const [called, direct] = toolResultsIn(modelRequests(harness)[2])
    expect(called).toMatchObject({ text: 'Echo: found it', isError: false })
    expect(direct.isError).toBe(true)
    expect(direct.text).toContain(
      'MCP tools are loaded on demand here: find the tool with search_mcp_tools, then call it with use_mcp_tool'
    )
  })
})
