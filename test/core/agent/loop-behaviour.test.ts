import { afterEach, describe, expect, it } from 'vitest'
import { lastUserText, toolResultsIn, type RecordedRequest } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness } from './support/harness'

let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

async function runToCompletion(h: Harness, text: string, mode = 'builder') {
  const task = await h.services.tasks.start({ text, mode, workspace: h.workspace })
  await h.waitForEvent((e, id) => id === task.id && e.type === 'completion', 'completion')
  await h.services.tasks.whenSettled(task.id)
  return task
}

describe('the agent loop', () => {
  it('runs several calls of one message in order and answers each of them', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'c.txt': 'gamma\n' },
      turns: [
        {
          toolCalls: [
            { name: 'read_file', input: { path: 'a.txt' } },
            { name: 'read_file', input: { path: 'b.txt' } },
            { name: 'read_file', input: { path: 'c.txt' } }
          ]
        },
        done
      ]
    })
    await runToCompletion(harness, 'read three files')
    const results = toolResultsIn(modelRequests(harness)[1])
    expect(
      results.map((r) =>
        r.text.includes('alpha') ? 'a' : r.text.includes('beta') ? 'b' : r.text.includes('gamma') ? 'c' : '?'
      )
    ).toEqual(['a', 'b', 'c'])
    expect(results.every((r) => r.isError === false)).toBe(true)
  })

  it('returns validation errors as is_error results and the model recovers', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'a.txt': 'alpha\n' },
      turns: [
        {
          toolCalls: [
            { name: 'read_file', input: {} },
            { name: 'no_such_tool', input: {} }
          ]
        },
        { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        done
      ]
    })
    await runToCompletion(harness, 'read a file')
    const [missing, unknown] = toolResultsIn(modelRequests(harness)[1])
    expect(missing).toMatchObject({ isError: true })
    expect(missing.text).toContain("Missing value for required parameter 'path'")
    expect(unknown.isError).toBe(true)
    expect(unknown.text).toContain('Unknown tool "no_such_tool"')
    expect(toolResultsIn(modelRequests(harness)[2])[0].text).toContain('alpha')
  })

  it('a rejection skips the rest of that message with a clear result', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'a.txt': 'alpha\n' },
      turns: [
        {
          toolCalls: [
            { name: 'execute_command', input: { command: 'rm -rf build' } },
            { name: 'read_file', input: { path: 'a.txt' } }
          ]
        },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'clean up', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item).toMatchObject({ kind: 'tool', tool: 'execute_command', mode: 'builder' })
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call', reason: 'not now' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const [rejected, skipped] = toolResultsIn(modelRequests(harness)[1])
    expect(rejected.text).toContain('The user denied this operation')
    expect(rejected.text).toContain('not now')
    expect(skipped.isError).toBe(true)
    expect(skipped.text).toContain('Skipped')
  })

  it('calls after new_task in the same message are not run', async () => {
    harness = await createHarness({
      modes: [
        builderMode,
        { ...builderMode, slug: 'helper', name: 'Helper', autoApprove: { read: true, subtasks: true } }
      ],
      files: { 'a.txt': 'alpha\n' },
      turns: [
        {
          toolCalls: [
            { name: 'new_task', input: { mode: 'helper', message: 'say hi' } },
            { name: 'read_file', input: { path: 'a.txt' } }
          ]
        },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'child says hi' } }] },
        done
      ]
    })
    await runToCompletion(harness, 'delegate', 'helper')
    const parentResults = toolResultsIn(modelRequests(harness)[2])
    expect(parentResults[0].text).toContain('child says hi')
    expect(parentResults[1]).toMatchObject({ isError: true })
    expect(parentResults[1].text).toContain('new_task')
  })

  it('the fourth identical call becomes an approval item; rejecting tells the model to change approach', async () => {
    const read = { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] }
    harness = await createHarness({
      modes: [builderMode],
      files: { 'a.txt': 'alpha\n' },
      turns: [read, read, read, read, done]
    })
    const task = await harness.services.tasks.start({ text: 'loop', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item.kind).toBe('repetition')
    expect(modelRequests(harness)).toHaveLength(4)
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(toolResultsIn(modelRequests(harness)[4])[0].text).toContain('repetition limit')
  })

  it('the mistake limit pauses with an approval item and passes the user guidance on', async () => {
    const bad = { toolCalls: [{ name: 'read_file', input: { wrong: 1 } }] }
    harness = await createHarness({ modes: [builderMode], policy: { mistakeLimit: 2 }, turns: [bad, bad, done] })
    const task = await harness.services.tasks.start({ text: 'try', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item.kind).toBe('mistake-limit')
    expect(modelRequests(harness)).toHaveLength(2)
    expect(harness.services.tasks.list().find((t) => t.id === task.id)?.status).toBe('waiting')
    harness.services.approvals.decide({
      approvalId: item.id,
      outcome: 'approve',
      scope: 'call',
      reason: 'Use the path parameter.'
    })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(lastUserText(modelRequests(harness)[2])).toContain('Use the path parameter.')
  })

  it('a call that succeeds ends the mistake streak: mistakes apart never pause', async () => {
    const bad = { toolCalls: [{ name: 'read_file', input: { wrong: 1 } }] }
    const good = { toolCalls: [{ name: 'list_files', input: { path: '.', recursive: false } }] }
    harness = await createHarness({ modes: [builderMode], policy: { mistakeLimit: 2 }, turns: [bad, good, bad, done] })
    const task = await runToCompletion(harness, 'try')
    expect(harness.eventsOf(task.id).filter((e) => e.type === 'approval-requested')).toEqual([])
    expect(modelRequests(harness)).toHaveLength(4)
  })

  it('a mistake limit of 0 never pauses', async () => {
    const bad = { toolCalls: [{ name: 'read_file', input: { wrong: 1 } }] }
    harness = await createHarness({
      modes: [builderMode],
      policy: { mistakeLimit: 0 },
      turns: [bad, bad, bad, bad, done]
    })
    const task = await runToCompletion(harness, 'try')
    expect(harness.eventsOf(task.id).filter((e) => e.type === 'approval-requested')).toEqual([])
    expect(modelRequests(harness)).toHaveLength(5)
  })

  it('a text-only answer is re-prompted to use a tool', async () => {
    harness = await createHarness({ modes: [builderMode], turns: [{ text: 'I think it is fine.' }, done] })
    await runToCompletion(harness, 'check')
    expect(lastUserText(modelRequests(harness)[1])).toContain('You did not use a tool')
  })

  it('a request cap pauses the loop; declining leaves the task stopped (not idle) and resumable', async () => {
    const read = (path: string) => ({ toolCalls: [{ name: 'list_files', input: { path, recursive: false } }] })
    harness = await createHarness({
      modes: [builderMode],
      policy: { maxRequests: 2 },
      turns: [read('.'), read('src'), done]
    })
    const task = await harness.services.tasks.start({ text: 'explore', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item.kind).toBe('request-limit')
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call' })
    await harness.services.tasks.whenSettled(task.id)
    expect(harness.services.tasks.list().find((t) => t.id === task.id)?.status).toBe('stopped')
    expect(modelRequests(harness)).toHaveLength(2)
    await harness.services.tasks.send({ taskId: task.id, text: 'go on' })
    const again = await harness.waitForApproval()
    expect(again.kind).toBe('request-limit')
    harness.services.approvals.decide({ approvalId: again.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
  })

  it('a follow-up suggestion that names a mode switches to it', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [
        {
          toolCalls: [
            {
              name: 'ask_followup_question',
              input: {
                question: 'Plan first?',
                follow_up: [{ text: 'Yes, plan it', mode: 'architect' }, { text: 'No' }]
              }
            }
          ]
        },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'build', mode: 'builder', workspace: harness.workspace })
    const question = await harness.waitForEvent((e) => e.type === 'followup')
    expect(question).toMatchObject({ question: 'Plan first?' })
    await harness.services.tasks.send({ taskId: task.id, text: 'Yes, plan it', mode: 'architect' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(toolResultsIn(modelRequests(harness)[1])[0].text).toContain('Yes, plan it')
    expect(harness.services.tasks.list().find((t) => t.id === task.id)?.mode).toBe('architect')
    // The second request offers architect's tools: no commands.
    const tools = (modelRequests(harness)[1].body.tools as Array<{ name: string }>).map((t) => t.name)
    expect(tools).not.toContain('execute_command')
  })

  it('answering a completion continues the task with the answer as the tool result', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [done, { toolCalls: [{ name: 'attempt_completion', input: { result: 'better' } }] }]
    })
    const task = await runToCompletion(harness, 'do it')
    await harness.services.tasks.send({ taskId: task.id, text: 'Make it better' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion' && e.result === 'better')
    expect(toolResultsIn(modelRequests(harness)[1])[0].text).toContain('Make it better')
  })

  it('a whole-turn approval covers the later calls of the same message', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [
        {
          toolCalls: [
            { name: 'execute_command', input: { command: 'echo one' } },
            { name: 'execute_command', input: { command: 'echo two' } }
          ]
        },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'echo', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'turn' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const results = toolResultsIn(modelRequests(harness)[1])
    expect(results[0].text).toContain('one')
    expect(results[1].text).toContain('two')
  })
})

describe('policy outcomes', () => {
  it('switch_mode asks by default; once approved the next request uses the new mode and its tools', async () => {
    harness = await createHarness({
      modes: [builderMode],
      turns: [
        { toolCalls: [{ name: 'switch_mode', input: { mode_slug: 'ask', reason: 'only questions left' } }] },
        done
      ]
    })
    const task = await harness.services.tasks.start({ text: 'switch', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item).toMatchObject({ tool: 'switch_mode', kind: 'tool' })
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(toolResultsIn(modelRequests(harness)[1])[0].text).toContain(
      'Switched from Builder mode to Ask mode because: only questions left'
    )
    const tools = (modelRequests(harness)[1].body.tools as Array<{ name: string }>).map((t) => t.name)
    expect(tools).not.toContain('write_to_file')
    expect(harness.eventsOf(task.id).find((e) => e.type === 'mode-changed')).toMatchObject({ mode: 'ask' })
  })

  it('a write the ignore file denies is refused with the rule, and nothing is staged', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { '.modusignore': 'secrets/\n', 'secrets/key.txt': 'k\n' },
      turns: [{ toolCalls: [{ name: 'write_to_file', input: { path: 'secrets/key.txt', content: 'stolen\n' } }] }, done]
    })
    const task = await harness.services.tasks.start({ text: 'write', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const [result] = toolResultsIn(modelRequests(harness)[1])
    expect(result.text).toContain('Denied by policy (ignored-path)')
    expect(harness.eventsOf(task.id).find((e) => e.type === 'tool-decision')).toMatchObject({
      decision: 'deny',
      rule: 'ignored-path'
    })
    expect(harness.services.edits.list(task.id)).toEqual([])
    expect(await harness.read('secrets/key.txt')).toBe('k\n')
  })

  it('the cost cap pauses the loop with an approval item before the next request', async () => {
    const costly = (p: string) => ({
      toolCalls: [{ name: 'list_files', input: { path: p, recursive: false } }],
      usage: { inputTokens: 400_000, outputTokens: 1_000 }
    })
    harness = await createHarness({ modes: [builderMode], policy: { maxCostUsd: 1 }, turns: [costly('.'), done] })
    const task = await harness.services.tasks.start({ text: 'spend', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item.kind).toBe('cost-limit')
    expect(item.reason).toContain('$1.00')
    expect(modelRequests(harness)).toHaveLength(1)
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    expect(harness.services.tasks.list().find((t) => t.id === task.id)?.costUsd).toBeGreaterThan(1)
  })
})

describe('streaming to the UI', () => {
  it('reasoning, text and partial tool calls stream as events before the call runs', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'a.txt': 'alpha\n' },
      turns: [
        {
          reasoning: 'I should read the file first.',
          text: 'Reading a.txt now.',
          toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }]
        },
        done
      ]
    })
    const task = await runToCompletion(harness, 'read it')
    const types = harness.eventsOf(task.id).map((e) => e.type)
    const first = (type: string) => types.indexOf(type as never)
    expect(first('reasoning-delta')).toBeGreaterThan(first('assistant-start'))
    expect(first('text-delta')).toBeGreaterThan(first('reasoning-delta'))
    expect(first('tool-call-partial')).toBeGreaterThan(first('text-delta'))
    expect(first('tool-call')).toBeGreaterThan(first('tool-call-partial'))
    expect(first('tool-result')).toBeGreaterThan(first('tool-call'))
    const reasoning = harness
      .eventsOf(task.id)
      .filter((e) => e.type === 'reasoning-delta')
      .map((e) => (e as { text: string }).text)
      .join('')
    expect(reasoning).toBe('I should read the file first.')
    // The partial argument deltas add up to the whole call.
    const partials = harness
      .eventsOf(task.id)
      .filter((e) => e.type === 'tool-call-partial' && e.name === 'read_file')
      .map((e) => (e as { argsDelta: string }).argsDelta)
    expect(partials.length).toBeGreaterThan(1)
    expect(JSON.parse(partials.join(''))).toEqual({ path: 'a.txt' })
  })

  it('streams a large argument as deltas: every byte once, in order, never the whole text again', async () => {
    const content = 'x'.repeat(300_000)
    harness = await createHarness({
      modes: [builderMode],
      turns: [{ toolCalls: [{ name: 'write_to_file', input: { path: 'big.txt', content } }] }, done]
    })
    const task = await harness.services.tasks.start({ text: 'write it', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'tool-call', 'tool-call')
    const partials = harness.eventsOf(task.id).filter((e) => e.type === 'tool-call-partial') as Array<{
      argsDelta: string
      argsOffset: number
    }>
    let assembled = ''
    for (const partial of partials) {
      expect(partial.argsOffset).toBe(assembled.length)
      assembled += partial.argsDelta
    }
    expect(JSON.parse(assembled)).toEqual({ path: 'big.txt', content })
    await harness.services.tasks.cancel(task.id)
  })

  it('sends the streamed message back as it arrived: thinking with its signature, text, tool use', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { 'a.txt': 'alpha\n' },
      turns: [
        {
          reasoning: 'Plan: read a.txt.',
          text: 'Reading.',
          toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }]
        },
        done
      ]
    })
    await runToCompletion(harness, 'read it')
    const assistant = modelRequests(harness)[1].body.messages[1]
    expect(assistant.role).toBe('assistant')
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'Plan: read a.txt.', signature: expect.stringMatching(/.+/) },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: expect.any(String), name: 'read_file', input: { path: 'a.txt' } }
    ])
  })
})
