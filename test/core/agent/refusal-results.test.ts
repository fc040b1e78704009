import { afterEach, describe, expect, it } from 'vitest'
import { lastUserText, toolResultsIn, type RecordedRequest } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness } from './support/harness'

/**
 * What the model (and any harness reading the wire) receives when a call is refused: an error
 * result starting with "[REFUSED", never a result that looks like a success.
 */
let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

describe('refused calls reach the model as error results', () => {
  for (const protocol of ['anthropic', 'openai'] as const) {
    it(`a call the user rejects, and the call skipped after it, are is_error with the prefix (${protocol})`, async () => {
      harness = await createHarness({
        protocol,
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
      const task = await harness.services.tasks.start({ text: 'clean', mode: 'builder', workspace: harness.workspace })
      const item = await harness.waitForApproval()
      harness.services.approvals.decide({
        approvalId: item.id,
        outcome: 'reject',
        scope: 'call',
        reason: 'keep the build'
      })
      await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
      const [rejected, skipped] = toolResultsIn(modelRequests(harness)[1])
      // Chat Completions has no is_error field: the error is in the text, before the refusal prefix.
      const errorMark = protocol === 'anthropic' ? '' : 'Error: '
      expect(rejected.isError).toBe(protocol === 'anthropic' ? true : undefined)
      expect(rejected.text).toBe(
        `${errorMark}[REFUSED by the user] The user denied this operation. Their reason: keep the build`
      )
      expect(skipped.isError).toBe(protocol === 'anthropic' ? true : undefined)
      expect(skipped.text.startsWith(`${errorMark}[REFUSED: skipped]`)).toBe(true)
    })
  }

  it('a call the policy denies is an error result naming the rule', async () => {
    harness = await createHarness({
      modes: [builderMode],
      files: { '.modusignore': 'secrets/\n', 'secrets/key.txt': 'k\n' },
      turns: [{ toolCalls: [{ name: 'write_to_file', input: { path: 'secrets/key.txt', content: 'stolen\n' } }] }, done]
    })
    const task = await harness.services.tasks.start({ text: 'write', mode: 'builder', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const [result] = toolResultsIn(modelRequests(harness)[1])
    expect(result).toMatchObject({ isError: true })
    expect(result.text).toMatch(/^\[REFUSED by policy\] Denied by policy \(ignored-path\)/)
  })

  it('a rejected edit review is an error result and nothing is written', async () => {
    harness = await createHarness({
      files: { 'a.txt': 'alpha\n' },
      turns: [{ toolCalls: [{ name: 'write_to_file', input: { path: 'a.txt', content: 'omega\n' } }] }, done]
    })
    const task = await harness.services.tasks.start({ text: 'edit', mode: 'code', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item.kind).toBe('edit')
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call', reason: 'wrong file' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const [result] = toolResultsIn(modelRequests(harness)[1])
    expect(result).toMatchObject({ isError: true })
    expect(result.text).toContain('[REFUSED by the user]')
    expect(result.text).toContain('wrong file')
    expect(await harness.read('a.txt')).toBe('alpha\n')
  })

  it('rejecting a repetition pause sends the refusal and the user reason to the model', async () => {
    const read = { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] }
    harness = await createHarness({
      modes: [builderMode],
      files: { 'a.txt': 'alpha\n' },
      turns: [read, read, read, read, done]
    })
    const task = await harness.services.tasks.start({ text: 'loop', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item.kind).toBe('repetition')
    harness.services.approvals.decide({
      approvalId: item.id,
      outcome: 'reject',
      scope: 'call',
      reason: 'the file will not change, stop reading it'
    })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const [result] = toolResultsIn(modelRequests(harness)[4])
    expect(result).toMatchObject({ isError: true })
    expect(result.text.startsWith('[REFUSED: repetition limit]')).toBe(true)
    expect(result.text).toContain('Their reason: the file will not change, stop reading it')
  })

  it('stopping at the mistake limit with a reason: the model is told the reason when the task goes on', async () => {
    const bad = { toolCalls: [{ name: 'read_file', input: { wrong: 1 } }] }
    harness = await createHarness({ modes: [builderMode], policy: { mistakeLimit: 2 }, turns: [bad, bad, done] })
    const task = await harness.services.tasks.start({ text: 'try', mode: 'builder', workspace: harness.workspace })
    const item = await harness.waitForApproval()
    expect(item.kind).toBe('mistake-limit')
    harness.services.approvals.decide({
      approvalId: item.id,
      outcome: 'reject',
      scope: 'call',
      reason: 'read_file takes a path'
    })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'status' && e.status === 'stopped')
    expect(modelRequests(harness)).toHaveLength(2)

    await harness.services.tasks.send({ taskId: task.id, text: 'try once more' })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const sent = lastUserText(modelRequests(harness)[2])
    expect(sent).toContain(
      'The user stopped the task at the mistake limit (2 mistakes in a row). Their reason: read_file takes a path'
    )
    expect(sent).toContain('try once more')
  })
})
