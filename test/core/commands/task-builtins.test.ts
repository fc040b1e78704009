import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { requests } from '../../../src/shared/contract'
import type { AgentEvent } from '../../../src/shared/agent/events'
import { builderMode, createHarness, type Harness } from '../agent/support/harness'
import type { RecordedRequest } from '../../support/fake-provider'

let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
const read = (path: string) => ({ toolCalls: [{ name: 'read_file', input: { path } }] })
const write = (path: string, content: string) => ({ toolCalls: [{ name: 'write_to_file', input: { path, content } }] })
const question = {
  toolCalls: [{ name: 'ask_followup_question', input: { question: 'Which file?', follow_up: [{ text: 'a.txt' }] } }]
}
const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
const completions = (h: Harness, taskId: string) => h.eventsOf(taskId).filter((e) => e.type === 'completion').length

/** Starts a task and waits until its run has ended (completed, its log closed). */
async function finishedTask(h: Harness, text: string, mode?: string): Promise<string> {
  const task = await h.services.tasks.start({ text, mode, workspace: h.workspace })
  await h.waitForEvent((e, id) => id === task.id && e.type === 'completion')
  await h.services.tasks.whenSettled(task.id)
  return task.id
}

describe('/condense', () => {
  it('summarises the earlier turns now: a row says how many messages and the tokens before and after; the next request carries the summary', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'a.txt': 'alpha\n'.repeat(200), 'b.txt': 'beta\n'.repeat(200), 'c.txt': 'gamma\n'.repeat(200) },
      turns: [read('a.txt'), read('b.txt'), read('c.txt'), done, { text: 'SUMMARY: read a, b and c.' }, done]
    })
    const taskId = await finishedTask(harness, 'read the files', 'builder')
    const before = modelRequests(harness).length

    const outcome = await harness.services.handlers['task:condense']({ taskId })
    expect(outcome.hiddenMessages).toBe(5)
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore)
    // One request: the summary, asked without tools.
    expect(modelRequests(harness)).toHaveLength(before + 1)
    expect(modelRequests(harness)[before].body.tools ?? []).toEqual([])
    const events = await harness.services.tasks.events(taskId)
    expect(events.find((e) => e.type === 'context-condensed')).toMatchObject({
      summary: 'SUMMARY: read a, b and c.',
      hiddenMessages: 5,
      tokensBefore: outcome.tokensBefore,
      tokensAfter: outcome.tokensAfter,
      requested: true
    })

    await harness.services.tasks.send({ taskId, text: 'and now?' })
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion' && completions(harness!, id) === 2)
    const next = JSON.stringify(modelRequests(harness).at(-1)!.body.messages)
    expect(next).toContain('SUMMARY: read a, b and c.')
    expect(next).not.toContain('beta\\nbeta')
  }, 60_000)

  it('refuses, saying why, when there is too little to condense or a turn waits for the user', async () => {
    harness = await createHarness({ turns: [done, question] })
    const short = await finishedTask(harness, 'one step')
    await expect(harness.services.handlers['task:condense']({ taskId: short })).rejects.toMatchObject({
      code: 'nothing_to_condense',
      message: expect.stringContaining('Nothing to condense yet')
    })

    const waiting = await harness.services.tasks.start({ text: 'ask me', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === waiting.id && e.type === 'followup')
    await expect(harness.services.handlers['task:condense']({ taskId: waiting.id })).rejects.toMatchObject({
      code: 'task_busy',
      message: expect.stringContaining('waiting for you')
    })
    await expect(harness.services.handlers['checkpoints:create']({ taskId: waiting.id })).rejects.toMatchObject({
      code: 'task_busy'
    })
    // Only the two turns reached the model: refusals ask it nothing.
    expect(modelRequests(harness)).toHaveLength(2)
  })
})

describe('/checkpoint', () => {
  it('saves a checkpoint between turns with the files changed since the last; listed, restorable and rewindable like the others', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [write('a.txt', 'one\n'), write('b.txt', 'one\n'), done, write('a.txt', 'two\n'), done]
    })
    const taskId = await finishedTask(harness, 'write two files', 'builder')
    const handlers = harness.services.handlers

    const saved = await handlers['checkpoints:create']({ taskId, label: 'both files written' })
    expect(saved).toMatchObject({ label: 'both files written', changedSinceLast: 2 })
    const again = await handlers['checkpoints:create']({ taskId })
    expect(again).toMatchObject({ label: 'Saved with /checkpoint', changedSinceLast: 0 })
    const rows = (await harness.services.tasks.events(taskId)).filter(
      (e): e is Extract<AgentEvent, { type: 'checkpoint' }> => e.type === 'checkpoint' && e.requested === true
    )
    expect(rows.map((e) => [e.checkpointId, e.changedSinceLast])).toEqual([
      [saved.checkpointId, 2],
      [again.checkpointId, 0]
    ])
    expect((await handlers['checkpoints:list']({ taskId })).map((c) => c.label)).toEqual([
      'write two files',
      'both files written',
      'Saved with /checkpoint'
    ])

    await harness.services.tasks.send({ taskId, text: 'change a again' })
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion' && completions(harness!, id) === 2)
    await harness.services.tasks.whenSettled(taskId)
    expect(await harness.read('a.txt')).toBe('two\n')

    // Restored through the review, as any checkpoint.
    const summary = await handlers['checkpoints:restore']({ taskId, checkpointId: saved.checkpointId })
    expect(summary).toMatchObject({ proposed: 1, conflicts: 0 })
    const item = await harness.waitForApproval((i) => i.id === summary.approvalId)
    expect(item.changes!.map((c) => [c.path, c.proposed])).toEqual([['a.txt', 'one\n']])
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'files-restored')
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('one\n')

    // And the conversation rewinds to it: the later exchange is no longer sent.
    await handlers['task:rewind']({ taskId, checkpointId: saved.checkpointId })
    const after = await harness.services.tasks.events(taskId)
    expect(after.some((e) => e.type === 'rewound' && e.checkpointId === saved.checkpointId)).toBe(true)
  }, 60_000)
})

describe('/cost', () => {
  it('adds a row with the tokens, cache and cost per model to the chat and the log; the model never sees it', async () => {
    harness = await createHarness({
      turns: [
        { ...read('a.txt'), usage: { inputTokens: 1_000, outputTokens: 50, cacheReadTokens: 400 } },
        { ...done, usage: { inputTokens: 1_200, outputTokens: 30, cacheWriteTokens: 100 } },
        done
      ],
      files: { 'a.txt': 'a\n' }
    })
    const taskId = await finishedTask(harness, 'read a')
    const { models } = await harness.services.handlers['task:cost']({ taskId })
    expect(models).toHaveLength(1)
    expect(models[0]).toMatchObject({
      model: 'claude-sonnet-4-6',
      requests: 2,
      inputTokens: 2_200,
      outputTokens: 80,
      cacheReadTokens: 400,
      cacheWriteTokens: 100
    })
    expect(models[0].costUsd).toBeGreaterThan(0)
    const logged = (await harness.services.tasks.events(taskId)).filter((e) => e.type === 'cost-report')
    expect(logged).toEqual([expect.objectContaining({ type: 'cost-report', models })])

    await harness.services.tasks.send({ taskId, text: 'anything else?' })
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion' && completions(harness!, id) === 2)
    expect(JSON.stringify(modelRequests(harness).at(-1)!.body)).not.toContain('cost-report')
    expect(JSON.stringify(modelRequests(harness).at(-1)!.body)).not.toContain('2,200')
  })
})

describe('an image without text', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
  const image = { mediaType: 'image/png' as const, dataBase64: PNG, name: 'shot.png' }

  it('is a message the contract accepts (an empty one is refused) and the model gets', async () => {
    const start = requests['task:start'].input
    expect(start.safeParse({ text: '', images: [image] }).success).toBe(true)
    expect(start.safeParse({ text: '  ' }).error?.issues[0]?.message).toBe('Write a message or attach an image.')
    expect(requests['task:send'].input.safeParse({ taskId: 't', text: '', images: [image] }).success).toBe(true)

    harness = await createHarness({ turns: [done, done] })
    const task = await harness.services.tasks.start({ text: '', images: [image], workspace: harness.workspace })
    expect(task.title).toBe('Image: shot.png')
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    await harness.services.tasks.whenSettled(task.id)
    expect(JSON.stringify(modelRequests(harness)[0].body.messages)).toContain(PNG)

    await harness.services.tasks.send({ taskId: task.id, text: '', images: [image] })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion' && completions(harness!, id) === 2)
    const last = modelRequests(harness)[1].body.messages as Array<{ role: string }>
    expect(JSON.stringify(last.filter((m) => m.role === 'user').at(-1))).toContain(PNG)
    const shown = harness.eventsOf(task.id).filter((e) => e.type === 'user-message')
    expect(shown.map((e) => e.type === 'user-message' && [e.text, e.images?.length])).toEqual([
      ['', 1],
      ['', 1]
    ])
  })
})
