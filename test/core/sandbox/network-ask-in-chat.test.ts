import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import type { ModeConfigInput } from '../../../src/shared/modes/schema'
import { createHarness, type Harness } from '../agent/support/harness'

/**
 * A sandboxed command's network ask in a real task (fake model over loopback, real pty, real
 * bubblewrap + socat): it is recorded on the card of the call that ran the command as well as put
 * in the queue, and how it ended is recorded too — answered, or left waiting until the command
 * gave up, which its tool result tells the model.
 */
const askingMode: ModeConfigInput = {
  slug: 'asking',
  name: 'Asking',
  roleDefinition: 'You fetch things in a sandbox.',
  groups: ['read', 'command'],
  autoApprove: { sandboxedCommands: true },
  sandbox: { enabled: true, network: 'ask' }
}

let server: Server
let port = 0
let home = ''
const savedHome = process.env.HOME
beforeAll(async () => {
  // The task shell starts with this HOME: nothing of the real one is read.
  home = mkdtempSync(join(tmpdir(), 'modus-home-'))
  process.env.HOME = home
  server = createServer((_request, response) => response.end('hello from the loopback host\n'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server?.close()
  process.env.HOME = savedHome
  rmSync(home, { recursive: true, force: true })
})

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

// 127.0.0.1 is on the sandbox's NO_PROXY list: --noproxy '' sends it through the sandbox proxy like any host.
const fetchCommand = (seconds: number) => `curl -fsS --max-time ${seconds} --noproxy '' http://127.0.0.1:${port}/`
const turnsFor = (command: string) => [
  { toolCalls: [{ name: 'execute_command', input: { command } }] },
  { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
]

/** The execute_command result as the model received it in its next request. */
function resultSentToModel(h: Harness): string {
  const last = h.fake.requests.filter((r) => r.path.endsWith('/messages')).at(-1)!.body
  const blocks = last.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
  const result = blocks.find((b: { type: string }) => b.type === 'tool_result')
  return (Array.isArray(result.content) ? result.content : [{ text: result.content }])
    .map((b: { text?: string }) => b.text ?? '')
    .join('')
}

const callIdOf = (events: AgentEvent[]): string => {
  const call = events.find((e) => e.type === 'tool-call' && e.name === 'execute_command')
  if (!call || call.type !== 'tool-call') throw new Error('no execute_command call')
  return call.callId
}

describe("a sandboxed command's network ask in its task", () => {
  it('is on the card of the call that ran the command; allowed once from the queue, the card says so and the command connects', async () => {
    harness = await createHarness({ modes: [askingMode], turns: turnsFor(fetchCommand(45)) })
    const h = harness
    const task = await h.services.tasks.start({ text: 'fetch it', mode: 'asking', workspace: h.workspace })
    const item = await h.waitForApproval((i) => i.kind === 'network')
    const callId = callIdOf(h.eventsOf(task.id))
    expect(item.callId).toBe(callId)
    const asked = await h.waitForEvent((e, id) => id === task.id && e.type === 'network-ask', 'the network-ask event')
    expect(asked).toMatchObject({
      type: 'network-ask',
      approvalId: item.id,
      callId,
      host: '127.0.0.1',
      port,
      command: fetchCommand(45)
    })

    h.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await h.waitForEvent((e, id) => id === task.id && e.type === 'completion', 'the completion')
    const ended = h.eventsOf(task.id).find((e) => e.type === 'network-ask-ended')
    expect(ended).toMatchObject({
      approvalId: item.id,
      outcome: 'allowed-once',
      text: `You allowed 127.0.0.1:${port} for this run of curl.`
    })
    expect(resultSentToModel(h)).toContain('hello from the loopback host')
  }, 90_000)

  it('a command that ends while its ask waits leaves the line on the card, in the log and in the tool result; the item leaves the queue', async () => {
    harness = await createHarness({ modes: [askingMode], turns: turnsFor(fetchCommand(3)) })
    const h = harness
    const task = await h.services.tasks.start({ text: 'fetch it', mode: 'asking', workspace: h.workspace })
    const item = await h.waitForApproval((i) => i.kind === 'network')
    // Nobody answers: curl's own time limit ends it.
    await h.waitForEvent((e, id) => id === task.id && e.type === 'completion', 'the completion')
    expect(h.services.approvals.list()).toEqual([])

    const line = new RegExp(
      `^curl gave up waiting for approval of 127\\.0\\.0\\.1:${port} after (\\d+ s|less than a second)\\.$`
    )
    const ended = h.eventsOf(task.id).find((e) => e.type === 'network-ask-ended')
    expect(ended).toMatchObject({ approvalId: item.id, outcome: 'gave-up' })
    expect(ended?.type === 'network-ask-ended' && ended.text).toMatch(line)

    const sent = resultSentToModel(h)
    expect(sent).toMatch(/^Command failed with exit code 28 /)
    expect(sent).toMatch(
      new RegExp(
        `^Sandbox: curl gave up waiting for approval of 127\\.0\\.0\\.1:${port} after .+; the connection was refused\\.$`,
        'm'
      )
    )

    // The record outlives the run: the task's log has the ask and its end, on the call's card.
    await h.services.tasks.whenSettled(task.id)
    const logged = await h.services.tasks.events(task.id)
    const callId = callIdOf(logged)
    expect(logged.filter((e) => e.type === 'network-ask' || e.type === 'network-ask-ended').map((e) => e.type)).toEqual(
      ['network-ask', 'network-ask-ended']
    )
    expect(logged.find((e) => e.type === 'network-ask')).toMatchObject({ callId, approvalId: item.id })
  }, 90_000)
})
