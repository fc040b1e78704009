import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { dispatch } from '../../../src/shared/contract/dispatch'
import type { Handlers } from '../../../src/shared/contract'
import { lastUserText, toolResultsIn, type RecordedRequest } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness } from './support/harness'

let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
const call = (h: Harness, channel: string, payload: unknown) =>
  dispatch({ ...h.services.handlers } as unknown as Handlers, channel, payload)

describe('subtasks', () => {
  it('orchestrator → new_task (approved) → child in the named mode → the parent receives the result', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'README.md': '# Demo\n' },
      turns: [
        {
          toolCalls: [
            {
              name: 'new_task',
              input: { mode: 'builder', message: 'Read README.md and report its title.', todos: '[ ] read\n[ ] report' }
            }
          ]
        },
        { toolCalls: [{ name: 'read_file', input: { path: 'README.md' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'The title is Demo.' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Child reported: Demo.' } }] }
      ]
    })
    const parent = await harness.services.tasks.start({
      text: 'Find the title',
      mode: 'orchestrator',
      workspace: harness.workspace
    })
    const item = await harness.waitForApproval()
    expect(item).toMatchObject({ tool: 'new_task', mode: 'orchestrator', rule: 'default-ask' })
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === parent.id && e.type === 'completion')

    const child = harness.services.tasks.list().find((t) => t.parentId === parent.id)
    expect(child).toMatchObject({ mode: 'builder', status: 'completed', title: 'Read README.md and report its title.' })
    expect(harness.eventsOf(child!.id).find((e) => e.type === 'todos')).toMatchObject({
      items: [{ text: 'read' }, { text: 'report' }]
    })
    // The child's first request is in builder mode and carries its own task; the parent's last carries the child's result.
    const requests = modelRequests(harness)
    expect(lastUserText(requests[1])).toContain('Read README.md and report its title.')
    expect(toolResultsIn(requests[3])[0].text).toContain('The title is Demo.')
    const parentEvents = harness.eventsOf(parent.id).filter((e) => e.type === 'subtask')
    expect(parentEvents.map((e) => (e as { status: string }).status)).toEqual(['started', 'completed'])
  })
})

describe('handlers', () => {
  it('"always allow in this mode" saves the suggested rule to the mode; the next identical command runs without asking', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [
        { toolCalls: [{ name: 'execute_command', input: { command: 'echo first' } }] },
        { toolCalls: [{ name: 'execute_command', input: { command: 'echo second' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
      ]
    })
    const task = await harness.services.tasks.start({
      text: 'echo twice',
      mode: 'builder',
      workspace: harness.workspace
    })
    const item = await harness.waitForApproval()
    expect(item.suggestedRule?.label).toBe('Always allow "echo *" in Builder mode')
    const listed = await call(harness, 'approvals:list', {})
    expect(listed).toMatchObject({
      ok: true,
      value: [expect.objectContaining({ id: item.id, reason: expect.any(String) })]
    })
    // The renderer confirms; whatever rule it sends, the one saved is the policy's suggestion.
    const decided = await call(harness, 'approvals:decide', {
      approvalId: item.id,
      outcome: 'approve',
      alwaysAllow: { commandAllow: ['*'] }
    })
    expect(decided).toEqual({ ok: true, value: { resolved: true } })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const saved = parse(readFileSync(join(harness.dataDir, 'modes.yaml'), 'utf8'))
    expect(saved.customModes.find((m: { slug: string }) => m.slug === 'builder').commandRules.allow).toEqual(['echo *'])
    const decisions = harness
      .eventsOf(task.id)
      .filter((e) => e.type === 'tool-decision')
      .map((e) => (e as { decision: string }).decision)
    expect(decisions).toEqual(['ask', 'allow'])
  })

  it('approvals:decide refuses hunk decisions that are not part of the review', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'AGENTS.md': 'a\n' },
      turns: [{ toolCalls: [{ name: 'write_to_file', input: { path: 'AGENTS.md', content: 'b\n' } }] }]
    })
    await harness.services.tasks.start({ text: 'edit', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    const refused = await call(harness, 'approvals:decide', {
      approvalId: item.id,
      outcome: 'approve',
      changes: [{ changeId: 'other' }]
    })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_decision' } })
    expect(harness.services.approvals.list()).toHaveLength(1)
  })

  it('changes:list shows a task’s changes with diffs and changes:revert restores the original', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'src/a.ts': 'const a = 1\n' },
      turns: [
        { toolCalls: [{ name: 'write_to_file', input: { path: 'src/a.ts', content: 'const a = 2\n' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
      ]
    })
    const task = await harness.services.tasks.start({ text: 'bump', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(await harness.read('src/a.ts')).toBe('const a = 2\n')
    const listed = await call(harness, 'changes:list', { taskId: task.id })
    expect(listed.ok).toBe(true)
    const [change] = (
      listed as { value: Array<{ id: string; status: string; auto: boolean; hunks: Array<{ lines: string[] }> }> }
    ).value
    expect(change).toMatchObject({ status: 'applied', auto: true })
    expect(change.hunks[0].lines).toEqual(expect.arrayContaining(['-const a = 1', '+const a = 2']))
    // Reverting opens a review; nothing is written until it is accepted.
    const opened = await call(harness, 'changes:revert', { taskId: task.id, changeId: change.id })
    expect(opened).toMatchObject({ ok: true, value: { approvalId: expect.any(String) } })
    expect(await harness.read('src/a.ts')).toBe('const a = 2\n')
    const approvalId = (opened as { value: { approvalId: string } }).value.approvalId
    expect(await call(harness, 'approvals:decide', { approvalId, outcome: 'approve' })).toMatchObject({
      ok: true,
      value: { resolved: true }
    })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'files-restored')
    expect(await harness.read('src/a.ts')).toBe('const a = 1\n')
    const after = (await call(harness, 'changes:list', { taskId: task.id })) as {
      value: Array<{ id: string; status: string }>
    }
    expect(after.value.find((listed) => listed.id === change.id)?.status).toBe('reverted')
  })

  it('task:list, task:events, task:export and task:delete', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [{ text: 'Done quickly.', toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }]
    })
    const task = await harness.services.tasks.start({ text: 'Say done', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    await harness.services.tasks.whenSettled(task.id)
    const list = await call(harness, 'task:list', {})
    expect(list).toMatchObject({
      ok: true,
      value: [
        expect.objectContaining({ id: task.id, title: 'Say done', status: 'completed', workspace: harness.workspace })
      ]
    })
    const events = await call(harness, 'task:events', { taskId: task.id })
    expect((events as { value: Array<{ type: string }> }).value.map((e) => e.type)).toEqual(
      expect.arrayContaining(['user-message', 'text-delta', 'completion'])
    )
    const exported = await call(harness, 'task:export', { taskId: task.id, format: 'markdown' })
    expect(exported).toMatchObject({
      ok: true,
      value: {
        fileName: expect.stringMatching(/^modus-task-say-done-.*\.md$/),
        content: expect.stringContaining('Done quickly.')
      }
    })
    expect(await call(harness, 'task:delete', { taskId: task.id })).toEqual({ ok: true, value: { deleted: true } })
    expect(await call(harness, 'task:events', { taskId: task.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
  })

  it('a follow-up is answered automatically when the mode allows it', async () => {
    harness = await createHarness({
      modes: [{ ...builderMode, autoApprove: { read: true, followup: true, followupTimeoutMs: 1000 } }],
      turns: [
        {
          toolCalls: [
            {
              name: 'ask_followup_question',
              input: { question: 'Which?', follow_up: [{ text: 'The first' }, { text: 'The second' }] }
            }
          ]
        },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
      ]
    })
    const task = await harness.services.tasks.start({ text: 'choose', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(toolResultsIn(modelRequests(harness)[1])[0].text).toContain('The first')
  })
})

describe('context', () => {
  it('past the threshold, older turns are condensed into a model-written summary that stays visible', async () => {
    const read = (p: string) => ({
      toolCalls: [{ name: 'read_file', input: { path: p } }],
      usage: { inputTokens: 1_500, outputTokens: 20 }
    })
    harness = await createHarness({
      modes: [builderMode],
      model: 'tiny-test-model',
      modelOverrides: [{ id: 'tiny-test-model', contextWindow: 4_000, maxOutput: 500 }],
      files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' },
      turns: [
        read('a.txt'),
        read('b.txt'),
        { ...read('c.txt'), usage: { inputTokens: 3_300, outputTokens: 20 } },
        { text: 'SUMMARY: read a, b and c.' },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
      ]
    })
    const task = await harness.services.tasks.start({ text: 'read all', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const requests = modelRequests(harness)
    expect(requests).toHaveLength(5)
    expect(requests[3].body.tools ?? []).toEqual([])
    const condensed = harness.eventsOf(task.id).find((e) => e.type === 'context-condensed')
    expect(condensed).toMatchObject({ summary: 'SUMMARY: read a, b and c.' })
    const final = JSON.stringify(requests[4].body.messages)
    expect(final).toContain('SUMMARY: read a, b and c.')
    expect(requests[4].body.messages.length).toBeLessThan(requests[2].body.messages.length + 2)
    // Non-destructive: the log still has every message, and the UI events are all there.
    const events = await harness.services.tasks.events(task.id)
    expect(events.filter((e) => e.type === 'tool-result')).toHaveLength(3)
  })
})

describe('approval queue across tasks', () => {
  it('gathers pending items of tasks running at once; each answer goes to its own task', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [
        { toolCalls: [{ name: 'execute_command', input: { command: 'echo one > one.txt' } }] },
        { toolCalls: [{ name: 'execute_command', input: { command: 'echo two > two.txt' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'first done' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'second done' } }] }
      ]
    })
    const first = await harness.services.tasks.start({ text: 'first', mode: 'builder', workspace: harness.workspace })
    await harness.waitForApproval((item) => item.taskId === first.id)
    const second = await harness.services.tasks.start({ text: 'second', mode: 'builder', workspace: harness.workspace })
    await harness.waitForApproval((item) => item.taskId === second.id)
    const items = harness.services.approvals.list()
    expect(items.map((i) => [i.taskTitle, i.summary])).toEqual([
      ['first', expect.stringContaining('echo one')],
      ['second', expect.stringContaining('echo two')]
    ])
    harness.services.approvals.decide({ approvalId: items[1].id, outcome: 'approve', scope: 'call' })
    harness.services.approvals.decide({
      approvalId: items[0].id,
      outcome: 'reject',
      scope: 'call',
      reason: 'not this one'
    })
    await harness.waitForEvent((e, id) => id === first.id && e.type === 'completion')
    await harness.waitForEvent((e, id) => id === second.id && e.type === 'completion')
    expect((await harness.read('two.txt')).trim()).toBe('two')
    await expect(harness.read('one.txt')).rejects.toThrow()
  })
})

describe('sliding window', () => {
  it('when the summary cannot be written, older turns are hidden instead and the model is told', async () => {
    const read = (p: string, inputTokens = 1_500) => ({
      toolCalls: [{ name: 'read_file', input: { path: p } }],
      usage: { inputTokens, outputTokens: 20 }
    })
    harness = await createHarness({
      modes: [builderMode],
      model: 'tiny-test-model',
      modelOverrides: [{ id: 'tiny-test-model', contextWindow: 4_000, maxOutput: 500 }],
      files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' },
      turns: [
        read('a.txt'),
        read('b.txt'),
        read('c.txt', 3_300),
        { error: { status: 400, type: 'invalid_request_error', message: 'summaries are not allowed today' } },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
      ]
    })
    const task = await harness.services.tasks.start({ text: 'read all', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const truncated = harness.eventsOf(task.id).find((e) => e.type === 'context-truncated')
    expect(truncated).toMatchObject({ hiddenMessages: expect.any(Number) })
    const requests = modelRequests(harness)
    const last = requests.at(-1)!
    expect(last.body.messages.length).toBeLessThan(requests[2].body.messages.length)
    expect(JSON.stringify(last.body.messages[0])).toContain('earlier messages were hidden to fit the context window')
    expect(last.body.messages[1].role).toBe('assistant')
  })
})
