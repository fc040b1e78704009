import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { findChromiumSync } from '../../../src/main/core/browser/find-chromium'
import { lastUserText, toolResultsIn } from '../../support/fake-provider'
import { autopilotMode, createHarness, type Harness } from '../agent/support/harness'

let harness: Harness | undefined
let server: Server | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})

const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] }

describe('mentions in a task', () => {
  it("the model gets the file's lines attached to the message; the chat keeps the user's text; a failed mention is said", async () => {
    harness = await createHarness({ files: { 'src/main.ts': 'export const answer = 42\n' }, turns: [done] })
    const text = 'Explain @src/main.ts and @src/gone.ts please'
    const task = await harness.services.tasks.start({ text, workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const sent = lastUserText(harness.fake.requests[0])
    expect(sent).toContain(`<task>\n${text}\n</task>`)
    expect(sent).toContain('<mention path="src/main.ts">\nFile: src/main.ts\n1 | export const answer = 42\n</mention>')
    expect(sent).toContain(
      '<mention path="src/gone.ts" attached="no">src/gone.ts does not exist in the workspace.</mention>'
    )
    const events = harness.eventsOf(task.id)
    expect(events.find((e) => e.type === 'user-message')).toMatchObject({ text })
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'error',
        message: '@src/gone.ts was not attached: src/gone.ts does not exist in the workspace.'
      })
    )
  })

  it('an answer to a follow-up question attaches what its @-mentions name, as a message does', async () => {
    harness = await createHarness({
      files: { 'src/main.ts': 'export const answer = 42\n' },
      turns: [
        {
          toolCalls: [
            { name: 'ask_followup_question', input: { question: 'Which file?', follow_up: [{ text: 'README' }] } }
          ]
        },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'Explain a file', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'followup')
    await harness.services.tasks.send({ taskId: task.id, text: 'This one: @src/main.ts and @src/gone.ts' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const [answer] = toolResultsIn(harness.fake.requests[1])
    expect(answer.text).toContain('<user_message>\nThis one: @src/main.ts and @src/gone.ts\n</user_message>')
    expect(answer.text).toContain(
      '<mention path="src/main.ts">\nFile: src/main.ts\n1 | export const answer = 42\n</mention>'
    )
    expect(answer.text).toContain('<mention path="src/gone.ts" attached="no">')
    expect(harness.eventsOf(task.id)).toContainEqual(
      expect.objectContaining({ type: 'error', message: expect.stringContaining('@src/gone.ts was not attached') })
    )
  })

  it("@terminal in a follow-up attaches the task's last command and its output", async () => {
    harness = await createHarness({
      modes: [autopilotMode],
      turns: [
        { toolCalls: [{ name: 'execute_command', input: { command: 'echo mention-output-$((6*7))' } }] },
        done,
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'Run it', mode: 'autopilot', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    await harness.services.tasks.whenSettled(task.id)
    await harness.services.tasks.send({ taskId: task.id, text: 'What did @terminal say?' })
    await harness.waitForEvent(
      (e, id) => id === task.id && e.type === 'completion' && harness!.fake.requests.length === 3
    )
    const sent = lastUserText(harness.fake.requests[2])
    expect(sent).toContain('<mention name="terminal">\n$ echo mention-output-$((6*7))\n(exit code 0')
    expect(sent).toContain('mention-output-42')
  })
})

const chromium = findChromiumSync()
describe.skipIf(!chromium)('@https:// mentions', { timeout: 90_000 }, () => {
  const servePage = async (): Promise<string> => {
    server = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<title>Notes</title><h2>Release plan</h2><p>Ship on <b>Friday</b>.</p><ul><li>tests</li><li>docs</li></ul>'
        )
    )
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/plan`
  }

  it('asks like a browser launch; once approved the page reaches the model as Markdown', async () => {
    const url = await servePage()
    harness = await createHarness({ turns: [done] })
    const task = await harness.services.tasks.start({ text: `Summarise @${url}`, workspace: harness.workspace })
    const item = await harness.waitForApproval((candidate) => candidate.tool === 'browser_action')
    expect(item.summary).toBe(`Open ${url} to attach it to your message (@-mention)`)
    expect(harness.fake.requests).toHaveLength(0)
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const sent = lastUserText(harness.fake.requests[0])
    expect(sent).toContain(
      `<mention url="${url}">\nPage: ${url} (HTTP 200)\n\n# Notes\n\n## Release plan\n\nShip on **Friday**.`
    )
    expect(sent).toContain('- tests\n- docs')
  })

  it('a declined page attaches nothing and the message still goes', async () => {
    const url = await servePage()
    harness = await createHarness({ turns: [done] })
    const task = await harness.services.tasks.start({ text: `Summarise @${url}`, workspace: harness.workspace })
    const item = await harness.waitForApproval((candidate) => candidate.tool === 'browser_action')
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const sent = lastUserText(harness.fake.requests[0])
    expect(sent).toContain(`<task>\nSummarise @${url}\n</task>`)
    expect(sent).toContain(`<mention url="${url}" attached="no">the page was not opened: you declined it</mention>`)
    expect(sent).not.toContain('Release plan')
  })
})
