import { afterEach, describe, expect, it } from 'vitest'
import { lastUserText, toolResultsIn, type RecordedRequest } from '../../support/fake-provider'
import { autopilotMode, builderMode, createHarness, type Harness, type Protocol } from './support/harness'

let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
const statusOf = (h: Harness, id: string) => h.services.tasks.list().find((t) => t.id === id)?.status

describe.each<Protocol>(['anthropic', 'openai'])('%s: provider errors', (protocol) => {
  it('a 429 with retry-after is retried after the wait the server asked for, shown as a retry event', async () => {
    harness = await createHarness({
      protocol,
      modes: [builderMode],
      turns: [{ error: { status: 429, retryAfter: 7 } }, done]
    })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const retry = harness.eventsOf(task.id).find((e) => e.type === 'retry')
    expect(retry).toMatchObject({ type: 'retry', attempt: 1, delayMs: 7000 })
    expect(modelRequests(harness)).toHaveLength(2)
  })

  it('an error mid-stream keeps the partial answer, fails recoverably, and the task resumes', async () => {
    harness = await createHarness({
      protocol,
      modes: [builderMode],
      turns: [
        {
          text: 'Partial answer before the failure',
          errorMidStream: { afterChunks: 3, type: 'invalid_request_error', message: 'stream broke' }
        },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'status' && e.status === 'failed')
    await harness.services.tasks.whenSettled(task.id)
    const events = harness.eventsOf(task.id)
    const error = events.find((e) => e.type === 'error')
    expect(error).toMatchObject({ recoverable: true })
    const partial = events
      .filter((e) => e.type === 'text-delta')
      .map((e) => (e as { text: string }).text)
      .join('')
    expect(partial.length).toBeGreaterThan(0)
    expect('Partial answer before the failure').toContain(partial.trim())

    await harness.services.tasks.resume(task.id)
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    // The kept partial answer is part of the history the model sees on resume.
    expect(JSON.stringify(modelRequests(harness).at(-1)!.body.messages)).toContain(partial.trim())
  })

  it('a context-too-long error reduces the history and retries', async () => {
    const list = { toolCalls: [{ name: 'list_files', input: { path: '.', recursive: false } }] }
    const read = (p: string) => ({ toolCalls: [{ name: 'read_file', input: { path: p } }] })
    harness = await createHarness({
      protocol,
      modes: [builderMode],
      files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' },
      turns: [
        list,
        read('a.txt'),
        read('b.txt'),
        read('c.txt'),
        {
          error:
            protocol === 'anthropic'
              ? {
                  status: 400,
                  type: 'invalid_request_error',
                  message: 'prompt is too long: 210000 tokens > 200000 maximum'
                }
              : {
                  status: 400,
                  code: 'context_length_exceeded',
                  message: "This model's maximum context length is 128000 tokens."
                }
        },
        { text: 'Summary: listed files, read a, b and c.' },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const requests = modelRequests(harness)
    expect(requests).toHaveLength(7)
    const condensed = harness.eventsOf(task.id).find((e) => e.type === 'context-condensed')
    expect(condensed).toMatchObject({ summary: 'Summary: listed files, read a, b and c.' })
    // The retried request carries the summary and fewer messages than the failed one.
    const failed = requests[4].body.messages.length
    const retried = requests[6].body.messages
    expect(retried.length).toBeLessThan(failed)
    expect(JSON.stringify(retried)).toContain('Summary: listed files')
  })
})

describe('cancel', () => {
  it('cancel mid-stream aborts the request, keeps the partial answer, and the task can go on', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [{ text: 'one two three four five six seven eight nine ten eleven twelve', chunkDelayMs: 150 }, done]
    })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'text-delta')
    const summary = await harness.services.tasks.cancel(task.id)
    expect(summary.status).toBe('cancelled')
    const partial = harness
      .eventsOf(task.id)
      .filter((e) => e.type === 'text-delta')
      .map((e) => (e as { text: string }).text)
      .join('')
    expect(partial.length).toBeGreaterThan(0)
    expect(partial.length).toBeLessThan('one two three four five six seven eight nine ten eleven twelve'.length)
    expect(harness.eventsOf(task.id).find((e) => e.type === 'assistant-end')).toMatchObject({ stopReason: 'cancelled' })

    await harness.services.tasks.send({ taskId: task.id, text: 'continue please' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const last = modelRequests(harness).at(-1)!
    expect(JSON.stringify(last.body.messages)).toContain(partial.trim())
    expect(lastUserText(last)).toContain('continue please')
  })

  it('cancel mid-tool kills the running command and records the call as cancelled', async () => {
    harness = await createHarness({
      modes: [autopilotMode],
      turns: [{ toolCalls: [{ name: 'execute_command', input: { command: 'sleep 30 && touch late.txt' } }] }, done]
    })
    const task = await harness.services.tasks.start({ text: 'wait', mode: 'autopilot', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'tool-started')
    const summary = await harness.services.tasks.cancel(task.id)
    expect(summary.status).toBe('cancelled')
    const result = harness.eventsOf(task.id).find((e) => e.type === 'tool-result')
    expect(result).toBeDefined()
    expect(statusOf(harness, task.id)).toBe('cancelled')
    await harness.services.tasks.send({ taskId: task.id, text: 'never mind' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const answered = toolResultsIn(modelRequests(harness).at(-1)!)
    expect(answered).toHaveLength(1)
    await expect(harness.read('late.txt')).rejects.toThrow()
  })

  it('cancel while an approval is pending removes it from the queue', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [{ toolCalls: [{ name: 'execute_command', input: { command: 'echo hi' } }] }]
    })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForApproval()
    await harness.services.tasks.cancel(task.id)
    expect(harness.services.approvals.list()).toEqual([])
    expect(harness.eventsOf(task.id).find((e) => e.type === 'approval-resolved')).toMatchObject({
      outcome: 'cancelled'
    })
  })
})

describe('retryable failure after part of the answer', () => {
  it('an overloaded error mid-stream is retried for the whole turn; the cut-off text stays visible but not in the history', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [
        {
          text: 'This answer breaks off halfway through',
          errorMidStream: { afterChunks: 2, type: 'overloaded_error', message: 'Overloaded' }
        },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'go', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const events = harness.eventsOf(task.id)
    expect(events.find((e) => e.type === 'assistant-end')).toMatchObject({ stopReason: 'error' })
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ attempt: 1, delayMs: 500 })
    expect(events.some((e) => e.type === 'status' && e.status === 'failed')).toBe(false)
    const retried = modelRequests(harness)[1]
    expect(JSON.stringify(retried.body.messages)).not.toContain('breaks off')
    expect(retried.body.messages).toHaveLength(modelRequests(harness)[0].body.messages.length)
  })
})
